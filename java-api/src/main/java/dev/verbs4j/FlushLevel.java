package dev.verbs4j;

/** Selectivity level of an RDMA FLUSH ({@code enum ibv_selectivity_level}). */
public enum FlushLevel {
    /** Flush the given range of the region. */
    RANGE,
    /** Flush the whole region; the address and length are ignored. */
    MR;

    /**
     * The {@code IBV_FLUSH_*} number.
     *
     * @return {@code IBV_FLUSH_RANGE} (0) or {@code IBV_FLUSH_MR} (1)
     */
    public int value() {
        return ordinal();
    }
}
