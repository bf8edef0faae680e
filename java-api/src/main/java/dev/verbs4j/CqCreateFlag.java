package dev.verbs4j;

import java.util.Set;

/** A creation flag of an {@link ExtendedCompletionQueue} ({@code enum ibv_create_cq_attr_flags}). */
public enum CqCreateFlag {
    /** Only one thread polls the queue, so the provider may skip its lock. */
    SINGLE_THREADED(1),
    /** An overrun does not put the queue in error. */
    IGNORE_OVERRUN(1 << 1);

    private final int value;

    CqCreateFlag(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_CREATE_CQ_ATTR_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * The bits of a set of flags.
     *
     * @param flags the flags
     * @return the {@code ibv_cq_init_attr_ex.flags} word
     */
    public static int mask(Set<CqCreateFlag> flags) {
        int mask = 0;
        for (CqCreateFlag f : flags) {
            mask |= f.value;
        }
        return mask;
    }
}
