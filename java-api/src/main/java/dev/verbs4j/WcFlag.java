package dev.verbs4j;

/** Flags of a work completion ({@code enum ibv_wc_flags}). */
public enum WcFlag {
    GRH(1), WITH_IMM(1 << 1), IP_CSUM_OK(1 << 2), WITH_INV(1 << 3);

    private final int value;

    WcFlag(int value) {
        this.value = value;
    }

    /** The {@code IBV_WC_*} bit. */
    public int value() {
        return value;
    }

    /** Whether this flag is set in a flag word. */
    public boolean isSet(int flags) {
        return (flags & value) != 0;
    }
}
