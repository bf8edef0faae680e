package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over the Invalidate Extended Transport Header (IBTA Vol. 1, 9.3.8), carried by the
 * last or only packet of SEND WITH INVALIDATE: the responder invalidates this R_Key.
 *
 * <pre>
 *  bits   31                                                            0
 *        +---------------------------------------------------------------+
 *  0     |                          R_Key                                |
 *        +---------------------------------------------------------------+
 * </pre>
 */
public final class Ieth {
    /** Size of the IETH in bytes. */
    public static final int LENGTH = 4;
    public static final int RKEY_OFFSET = 0;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the IETH that starts at {@code offset} in {@code segment}. */
    public Ieth wrap(MemorySegment segment, long offset) {
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

    /** The R_Key to invalidate. */
    public int rkey() {
        return BigEndian.i32(segment, offset + RKEY_OFFSET);
    }

    public Ieth rkey(int rkey) {
        BigEndian.i32(segment, offset + RKEY_OFFSET, rkey);
        return this;
    }
}
