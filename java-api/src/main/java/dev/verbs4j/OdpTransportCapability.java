package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/** On-Demand Paging support of one transport ({@code enum ibv_odp_transport_cap_bits}). */
public enum OdpTransportCapability {
    SEND(1), RECV(1 << 1), WRITE(1 << 2), READ(1 << 3), ATOMIC(1 << 4), SRQ_RECV(1 << 5),
    /** {@code IBV_ODP_SUPPORT_FLUSH}, rdma-core 58+. */
    FLUSH(1 << 6),
    /** {@code IBV_ODP_SUPPORT_ATOMIC_WRITE}, rdma-core 58+. */
    ATOMIC_WRITE(1 << 7);

    private final int value;

    OdpTransportCapability(int value) {
        this.value = value;
    }

    /** The {@code IBV_ODP_SUPPORT_*} bit. */
    public int value() {
        return value;
    }

    /** The capabilities named in a mask. */
    public static EnumSet<OdpTransportCapability> fromMask(int mask) {
        EnumSet<OdpTransportCapability> set = EnumSet.noneOf(OdpTransportCapability.class);
        for (OdpTransportCapability c : values()) {
            if ((mask & c.value) != 0) {
                set.add(c);
            }
        }
        return set;
    }

    /** The mask of a set. */
    public static int toMask(Set<OdpTransportCapability> caps) {
        int mask = 0;
        for (OdpTransportCapability c : caps) {
            mask |= c.value;
        }
        return mask;
    }
}
