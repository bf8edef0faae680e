package dev.verbs4j;

import java.util.Set;

/**
 * On-Demand Paging capabilities ({@code struct ibv_odp_caps} plus the XRC caps of
 * {@code ibv_device_attr_ex}).
 */
public record OdpCapabilities(
        Set<OdpCapability> general,
        Set<OdpTransportCapability> rc,
        Set<OdpTransportCapability> uc,
        Set<OdpTransportCapability> ud,
        Set<OdpTransportCapability> xrc) {

    /** No ODP at all. */
    public static final OdpCapabilities NONE = new OdpCapabilities(Set.of(), Set.of(), Set.of(), Set.of(), Set.of());

    public OdpCapabilities {
        general = Set.copyOf(general);
        rc = Set.copyOf(rc);
        uc = Set.copyOf(uc);
        ud = Set.copyOf(ud);
        xrc = Set.copyOf(xrc);
    }

    /** Whether the device supports ODP at all. */
    public boolean supported() {
        return general.contains(OdpCapability.SUPPORT);
    }

    /** Whether the device supports implicit ODP (one region over the whole address space). */
    public boolean implicit() {
        return general.contains(OdpCapability.SUPPORT_IMPLICIT);
    }

    /** The caps of a transport. */
    public Set<OdpTransportCapability> of(QpType type) {
        return switch (type) {
            case RC -> rc;
            case UC -> uc;
            case UD -> ud;
        };
    }
}
