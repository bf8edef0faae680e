package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over an RDMA Extended Transport Header (IBTA Vol. 1, 9.3.3), carried by the
 * first or only packet of RDMA WRITE, by RDMA READ requests, by ATOMIC WRITE and (after the
 * FETH) by FLUSH.
 *
 * <pre>
 *  bits   31                                                            0
 *        +---------------------------------------------------------------+
 *  0     |                   Virtual Address (63..32)                    |
 *  4     |                   Virtual Address (31..0)                     |
 *        +---------------------------------------------------------------+
 *  8     |                          R_Key                                |
 *        +---------------------------------------------------------------+
 *  12    |                   DMA Length (unsigned)                       |
 *        +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The DMA length is unsigned 32-bit on the wire; {@link #dmaLength()} returns the raw bits
 * (use {@link Integer#toUnsignedLong(int)}). rxe rejects lengths of 2^31 and more.
 */
public final class Reth {
    /** Size of the RETH in bytes. */
    public static final int LENGTH = 16;
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = 8;
    public static final int DMA_LENGTH_OFFSET = 12;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the RETH that starts at {@code offset} in {@code segment}. */
    public Reth wrap(MemorySegment segment, long offset) {
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

    /** Writes all three fields. */
    public Reth init(long va, int rkey, int dmaLength) {
        return va(va).rkey(rkey).dmaLength(dmaLength);
    }

    /** Remote virtual address. */
    public long va() {
        return BigEndian.i64(segment, offset + VA_OFFSET);
    }

    public Reth va(long va) {
        BigEndian.i64(segment, offset + VA_OFFSET, va);
        return this;
    }

    /** Remote key of the target memory region or window. */
    public int rkey() {
        return BigEndian.i32(segment, offset + RKEY_OFFSET);
    }

    public Reth rkey(int rkey) {
        BigEndian.i32(segment, offset + RKEY_OFFSET, rkey);
        return this;
    }

    /** Length of the whole message in bytes, as raw unsigned 32-bit. */
    public int dmaLength() {
        return BigEndian.i32(segment, offset + DMA_LENGTH_OFFSET);
    }

    public Reth dmaLength(int dmaLength) {
        BigEndian.i32(segment, offset + DMA_LENGTH_OFFSET, dmaLength);
        return this;
    }
}
