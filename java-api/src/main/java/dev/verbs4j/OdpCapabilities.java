package dev.verbs4j;

import java.util.Set;

/**
 * On-Demand Paging capabilities ({@code struct ibv_odp_caps} plus the XRC caps of
 * {@code ibv_device_attr_ex}).
 *
 * @param general the device-wide bits ({@code general_caps})
 * @param rc what RC queue pairs support ({@code per_transport_caps.rc_odp_caps})
 * @param uc what UC queue pairs support ({@code per_transport_caps.uc_odp_caps})
 * @param ud what UD queue pairs support ({@code per_transport_caps.ud_odp_caps})
 * @param xrc what XRC queue pairs support ({@code xrc_odp_caps})
 */
public record OdpCapabilities(
        Set<OdpCapability> general,
        Set<OdpTransportCapability> rc,
        Set<OdpTransportCapability> uc,
        Set<OdpTransportCapability> ud,
        Set<OdpTransportCapability> xrc) {

    /** No ODP at all. */
    public static final OdpCapabilities NONE = new OdpCapabilities(Set.of(), Set.of(), Set.of(), Set.of(), Set.of());

    /**
     * Capabilities holding copies of the given sets.
     *
     * @throws NullPointerException if a set is null or holds null
     */
    public OdpCapabilities {
        general = Set.copyOf(general);
        rc = Set.copyOf(rc);
        uc = Set.copyOf(uc);
        ud = Set.copyOf(ud);
        xrc = Set.copyOf(xrc);
    }

    /**
     * Whether the device supports ODP at all.
     *
     * @return true if {@link OdpCapability#SUPPORT} is set
     */
    public boolean supported() {
        return general.contains(OdpCapability.SUPPORT);
    }

    /**
     * Whether the device supports implicit ODP (one region over the whole address space).
     *
     * @return true if {@link OdpCapability#SUPPORT_IMPLICIT} is set
     */
    public boolean implicit() {
        return general.contains(OdpCapability.SUPPORT_IMPLICIT);
    }

    /**
     * The caps of a transport.
     *
     * @param type the transport
     * @return its set
     */
    public Set<OdpTransportCapability> of(QpType type) {
        return switch (type) {
            case RC -> rc;
            case UC -> uc;
            case UD -> ud;
        };
    }
}
