package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/** On-Demand Paging support of one transport ({@code enum ibv_odp_transport_cap_bits}). */
public enum OdpTransportCapability {
    /** {@code IBV_ODP_SUPPORT_SEND}: sends may gather from on-demand memory. */
    SEND(1),

    /** {@code IBV_ODP_SUPPORT_RECV}: receives may scatter into on-demand memory. */
    RECV(1 << 1),

    /** {@code IBV_ODP_SUPPORT_WRITE}: incoming RDMA WRITEs may target on-demand memory. */
    WRITE(1 << 2),

    /** {@code IBV_ODP_SUPPORT_READ}: incoming RDMA READs may read on-demand memory. */
    READ(1 << 3),

    /** {@code IBV_ODP_SUPPORT_ATOMIC}: incoming atomics may target on-demand memory. */
    ATOMIC(1 << 4),

    /**
     * {@code IBV_ODP_SUPPORT_SRQ_RECV}: receives from a shared receive queue may scatter into on-demand
     * memory.
     */
    SRQ_RECV(1 << 5),

    /** {@code IBV_ODP_SUPPORT_FLUSH} (rdma-core 58+): incoming FLUSHes may target on-demand memory. */
    FLUSH(1 << 6),

    /**
     * {@code IBV_ODP_SUPPORT_ATOMIC_WRITE} (rdma-core 58+): incoming ATOMIC WRITEs may target on-demand
     * memory.
     */
    ATOMIC_WRITE(1 << 7);


    private final int value;

    OdpTransportCapability(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_ODP_SUPPORT_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * The capabilities named in a mask.
     *
     * @param mask a word such as {@code ibv_odp_caps.per_transport_caps.rc_odp_caps}; unknown bits are ignored
     * @return a new set
     */
    public static EnumSet<OdpTransportCapability> fromMask(int mask) {
        EnumSet<OdpTransportCapability> set = EnumSet.noneOf(OdpTransportCapability.class);
        for (OdpTransportCapability c : values()) {
            if ((mask & c.value) != 0) {
                set.add(c);
            }
        }
        return set;
    }

    /**
     * The mask of a set.
     *
     * @param caps the capabilities
     * @return the OR of their bits
     */
    public static int toMask(Set<OdpTransportCapability> caps) {
        int mask = 0;
        for (OdpTransportCapability c : caps) {
            mask |= c.value;
        }
        return mask;
    }
}
