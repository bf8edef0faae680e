package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over the Datagram Extended Transport Header (IBTA Vol. 1, 9.3.2), carried by
 * every UD packet.
 *
 * <pre>
 *  bits   31          24 23                                             0
 *        +---------------------------------------------------------------+
 *  0     |                          Q_Key                                |
 *        +--------------+------------------------------------------------+
 *  4     |   Reserved   |            Source QP (24 bits)                 |
 *        +--------------+------------------------------------------------+
 * </pre>
 *
 * <p>A Q_Key with bit 31 set is a controlled Q_Key; the responder compares it
 * with the QP's Q_Key and drops on mismatch, as rxe {@code check_keys()} does.
 */
public final class Deth {
    /** Size of the DETH in bytes. */
    public static final int LENGTH = 8;
    public static final int QKEY_OFFSET = 0;
    /** 32-bit word whose low 24 bits are the source QP; the top byte is reserved. */
    public static final int SRC_QP_OFFSET = 4;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the DETH that starts at {@code offset} in {@code segment}. */
    public Deth wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.offset = offset;
        return this;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long offset() {
        return offset;
    }

    /** Writes both words, with the reserved byte 0. */
    public Deth init(int qkey, int srcQp) {
        BigEndian.i32(segment, offset + QKEY_OFFSET, qkey);
        BigEndian.i32(segment, offset + SRC_QP_OFFSET, srcQp & 0x00FF_FFFF);
        return this;
    }

    public int qkey() {
        return BigEndian.i32(segment, offset + QKEY_OFFSET);
    }

    public Deth qkey(int qkey) {
        BigEndian.i32(segment, offset + QKEY_OFFSET, qkey);
        return this;
    }

    /** The sender's QP number (24 bits). */
    public int srcQp() {
        return BigEndian.u24(segment, offset + SRC_QP_OFFSET);
    }

    public Deth srcQp(int srcQp) {
        BigEndian.u24(segment, offset + SRC_QP_OFFSET, srcQp);
        return this;
    }
}
