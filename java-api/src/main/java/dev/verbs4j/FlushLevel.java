package dev.verbs4j;

/** Selectivity level of an RDMA FLUSH ({@code enum ibv_selectivity_level}). */
public enum FlushLevel {
    /** Flush the given range of the region. */
    RANGE,
    /** Flush the whole region; the address and length are ignored. */
    MR;

    /** The {@code IBV_FLUSH_*} number. */
    public int value() {
        return ordinal();
    }
}
