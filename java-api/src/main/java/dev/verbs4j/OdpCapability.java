package dev.verbs4j;

import java.util.EnumSet;

/** General On-Demand Paging support ({@code enum ibv_odp_general_caps}). */
public enum OdpCapability {
    /** {@code IBV_ODP_SUPPORT}: regions may be registered with {@link Access#ON_DEMAND}. */
    SUPPORT(1),

    /**
     * {@code IBV_ODP_SUPPORT_IMPLICIT}: one on-demand region may cover the whole address space ({@link
     * ProtectionDomain#registerImplicitOnDemand}).
     */
    SUPPORT_IMPLICIT(1 << 1);


    private final int value;

    OdpCapability(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_ODP_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * The capabilities named in a mask.
     *
     * @param mask an {@code ibv_odp_caps.general_caps} word; unknown bits are ignored
     * @return a new set
     */
    public static EnumSet<OdpCapability> fromMask(long mask) {
        EnumSet<OdpCapability> set = EnumSet.noneOf(OdpCapability.class);
        for (OdpCapability c : values()) {
            if ((mask & c.value) != 0) {
                set.add(c);
            }
        }
        return set;
    }
}
