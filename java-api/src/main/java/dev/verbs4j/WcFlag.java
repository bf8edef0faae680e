package dev.verbs4j;

/** Flags of a work completion ({@code enum ibv_wc_flags}). */
public enum WcFlag {
    /**
     * {@code IBV_WC_GRH}: a UD receive whose first 40 bytes hold the global routing header (on RoCEv2:
     * the IP header).
     */
    GRH(1),

    /** {@code IBV_WC_WITH_IMM}: the completion carries immediate data. */
    WITH_IMM(1 << 1),

    /** {@code IBV_WC_IP_CSUM_OK}: the device verified the received packet's IP and L4 checksums. */
    IP_CSUM_OK(1 << 2),

    /** {@code IBV_WC_WITH_INV}: the peer invalidated one of this side's rkeys. */
    WITH_INV(1 << 3);


    private final int value;

    WcFlag(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_WC_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * Whether this flag is set in a flag word.
     *
     * @param flags a {@code wc_flags} word
     * @return true if this bit is set in it
     */
    public boolean isSet(int flags) {
        return (flags & value) != 0;
    }
}
