package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over an Atomic Extended Transport Header (IBTA Vol. 1, 9.3.4), carried by
 * COMPARE SWAP and FETCH ADD. The 28 bytes are packed: the 64-bit operands start at offset
 * 12, which is not 8-byte aligned.
 *
 * <pre>
 *  bits   31                                                            0
 *        +---------------------------------------------------------------+
 *  0     |                   Virtual Address (63..32)                    |
 *  4     |                   Virtual Address (31..0)                     |
 *        +---------------------------------------------------------------+
 *  8     |                          R_Key                                |
 *        +---------------------------------------------------------------+
 *  12    |            Swap (CmpSwap) or Add (FetchAdd) Data (63..32)     |
 *  16    |            Swap (CmpSwap) or Add (FetchAdd) Data (31..0)      |
 *        +---------------------------------------------------------------+
 *  20    |                   Compare Data (63..32)                       |
 *  24    |                   Compare Data (31..0)                        |
 *        +---------------------------------------------------------------+
 * </pre>
 */
public final class AtomicEth {
    /** Size of the AtomicETH in bytes. */
    public static final int LENGTH = 28;
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = 8;
    public static final int SWAP_OR_ADD_OFFSET = 12;
    public static final int COMPARE_OFFSET = 20;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the AtomicETH that starts at {@code offset} in {@code segment}. */
    public AtomicEth wrap(MemorySegment segment, long offset) {
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

    /** Writes all four fields. */
    public AtomicEth init(long va, int rkey, long swapOrAdd, long compare) {
        return va(va).rkey(rkey).swapOrAdd(swapOrAdd).compare(compare);
    }

    /** Remote virtual address; rxe requires it 8-byte aligned. */
    public long va() {
        return BigEndian.i64(segment, offset + VA_OFFSET);
    }

    public AtomicEth va(long va) {
        BigEndian.i64(segment, offset + VA_OFFSET, va);
        return this;
    }

    public int rkey() {
        return BigEndian.i32(segment, offset + RKEY_OFFSET);
    }

    public AtomicEth rkey(int rkey) {
        BigEndian.i32(segment, offset + RKEY_OFFSET, rkey);
        return this;
    }

    /** The swap value of COMPARE SWAP or the addend of FETCH ADD. */
    public long swapOrAdd() {
        return BigEndian.i64(segment, offset + SWAP_OR_ADD_OFFSET);
    }

    public AtomicEth swapOrAdd(long swapOrAdd) {
        BigEndian.i64(segment, offset + SWAP_OR_ADD_OFFSET, swapOrAdd);
        return this;
    }

    /** The compare value of COMPARE SWAP; FETCH ADD ignores it. */
    public long compare() {
        return BigEndian.i64(segment, offset + COMPARE_OFFSET);
    }

    public AtomicEth compare(long compare) {
        BigEndian.i64(segment, offset + COMPARE_OFFSET, compare);
        return this;
    }
}
