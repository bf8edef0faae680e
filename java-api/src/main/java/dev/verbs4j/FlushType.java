package dev.verbs4j;

import java.util.Set;

/** Placement type of an RDMA FLUSH ({@code enum ibv_placement_type}); several may be combined. */
public enum FlushType {
    /** Make prior writes globally visible. */
    GLOBAL(1),
    /** Make prior writes persistent. */
    PERSISTENT(2);

    private final int value;

    FlushType(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_FLUSH_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * The bit mask of a set.
     *
     * @param types the placement types
     * @return the OR of their bits, as {@code ibv_wr_flush} takes them
     */
    public static int toMask(Set<FlushType> types) {
        int mask = 0;
        for (FlushType t : types) {
            mask |= t.value;
        }
        return mask;
    }
}
