package dev.verbs4j;

import java.util.EnumSet;

/** General On-Demand Paging support ({@code enum ibv_odp_general_caps}). */
public enum OdpCapability {
    SUPPORT(1), SUPPORT_IMPLICIT(1 << 1);

    private final int value;

    OdpCapability(int value) {
        this.value = value;
    }

    /** The {@code IBV_ODP_*} bit. */
    public int value() {
        return value;
    }

    /** The capabilities named in a mask. */
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
