package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over the Immediate Data header (IBTA Vol. 1, 9.3.7), carried by the last or only
 * packet of SEND WITH IMM and RDMA WRITE WITH IMM.
 *
 * <pre>
 *  bits   31                                                            0
 *        +---------------------------------------------------------------+
 *  0     |                       Immediate Data                          |
 *        +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The value is read as a big-endian int, so {@code immData()} equals the first wire byte
 * in its top bits. libibverbs hands {@code ibv_wc.imm_data} to applications in network byte
 * order; converting is the completion code's business, not the codec's.
 */
public final class ImmDt {
    /** Size of the ImmDt header in bytes. */
    public static final int LENGTH = 4;
    public static final int IMM_DATA_OFFSET = 0;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the ImmDt that starts at {@code offset} in {@code segment}. */
    public ImmDt wrap(MemorySegment segment, long offset) {
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

    public int immData() {
        return BigEndian.i32(segment, offset + IMM_DATA_OFFSET);
    }

    public ImmDt immData(int immData) {
        BigEndian.i32(segment, offset + IMM_DATA_OFFSET, immData);
        return this;
    }
}
