package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over the FLUSH Extended Transport Header (IBTA 1.5 Memory Placement Extensions),
 * which sits between the BTH and the RETH of an RDMA FLUSH.
 *
 * <pre>
 *  bits   31                                             6  5   4 3       0
 *        +------------------------------------------------+-------+---------+
 *  0     |                   Reserved                     |  SEL  |   PLT   |
 *        +------------------------------------------------+-------+---------+
 * </pre>
 *
 * <p>The bit positions are the Linux rxe ones ({@code rxe_hdr.h}: {@code FETH_PLT_MASK 0x0f},
 * {@code FETH_SEL_MASK 0x30}), because interoperating with rxe is what matters here. Wireshark's
 * dissector (4.4 and later) reads PLT from bits 2..0 and SEL from bits 4..3, so it shows an rxe
 * FLUSH with SEL = 1 as SEL = 2; the bytes on the wire are the same either way.
 */
public final class Feth {
    /** Size of the FETH in bytes. */
    public static final int LENGTH = 4;
    public static final int BITS_OFFSET = 0;

    /** Placement type: global visibility ({@code IBV_FLUSH_GLOBAL}). */
    public static final int PLACEMENT_GLOBAL = 1;
    /** Placement type: persistence ({@code IBV_FLUSH_PERSISTENT}). */
    public static final int PLACEMENT_PERSISTENT = 2;
    /** Selectivity: the address range in the RETH. */
    public static final int SELECTIVITY_RANGE = 0;
    /** Selectivity: the whole memory region; the RETH address and length are ignored. */
    public static final int SELECTIVITY_MEMORY_REGION = 1;

    private static final int PLACEMENT_MASK = 0x0F;
    private static final int SELECTIVITY_MASK = 0x30;
    private static final int SELECTIVITY_SHIFT = 4;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the FETH that starts at {@code offset} in {@code segment}. */
    public Feth wrap(MemorySegment segment, long offset) {
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

    /** Writes the whole word with the reserved bits 0, as rxe {@code feth_init} does. */
    public Feth init(int placementType, int selectivityLevel) {
        BigEndian.i32(segment, offset + BITS_OFFSET,
                ((selectivityLevel << SELECTIVITY_SHIFT) & SELECTIVITY_MASK) | (placementType & PLACEMENT_MASK));
        return this;
    }

    /** The raw 32-bit word, reserved bits included. */
    public int bits() {
        return BigEndian.i32(segment, offset + BITS_OFFSET);
    }

    /** Placement type, bits 3..0. */
    public int placementType() {
        return bits() & PLACEMENT_MASK;
    }

    public Feth placementType(int placementType) {
        BigEndian.i32(segment, offset + BITS_OFFSET, (bits() & ~PLACEMENT_MASK) | (placementType & PLACEMENT_MASK));
        return this;
    }

    /** Selectivity level, bits 5..4. */
    public int selectivityLevel() {
        return (bits() & SELECTIVITY_MASK) >>> SELECTIVITY_SHIFT;
    }

    public Feth selectivityLevel(int level) {
        BigEndian.i32(segment, offset + BITS_OFFSET,
                (bits() & ~SELECTIVITY_MASK) | ((level << SELECTIVITY_SHIFT) & SELECTIVITY_MASK));
        return this;
    }
}
