package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over an Atomic ACK Extended Transport Header (IBTA Vol. 1, 9.3.6), which follows
 * the AETH in an ATOMIC ACKNOWLEDGE.
 *
 * <pre>
 *  bits   31                                                            0
 *        +---------------------------------------------------------------+
 *  0     |               Original Remote Data (63..32)                   |
 *  4     |               Original Remote Data (31..0)                    |
 *        +---------------------------------------------------------------+
 * </pre>
 */
public final class AtomicAckEth {
    /** Size of the AtomicAckETH in bytes. */
    public static final int LENGTH = 8;
    public static final int ORIGINAL_VALUE_OFFSET = 0;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the AtomicAckETH that starts at {@code offset} in {@code segment}. */
    public AtomicAckEth wrap(MemorySegment segment, long offset) {
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

    /** The 64-bit value at the target address before the atomic operation. */
    public long originalValue() {
        return BigEndian.i64(segment, offset + ORIGINAL_VALUE_OFFSET);
    }

    public AtomicAckEth originalValue(long value) {
        BigEndian.i64(segment, offset + ORIGINAL_VALUE_OFFSET, value);
        return this;
    }
}
