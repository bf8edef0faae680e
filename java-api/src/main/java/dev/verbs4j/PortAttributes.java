package dev.verbs4j;

/**
 * Attributes of a device port ({@code struct ibv_port_attr}), the fields RoCE users read.
 *
 * @param state        logical state
 * @param maxMtu       largest MTU the port supports
 * @param activeMtu    MTU in use (for RoCE, derived from the netdev MTU)
 * @param gidTableLength number of GID table entries
 * @param lid          local identifier (0 on RoCE)
 * @param linkLayerEthernet whether the link layer is Ethernet (RoCE)
 * @param activeSpeed  {@code active_speed} code
 * @param activeWidth  {@code active_width} code
 * @param maxMsgSize   largest message size
 * @param pkeyTableLength number of P_Key table entries
 */
public record PortAttributes(
        PortState state,
        Mtu maxMtu,
        Mtu activeMtu,
        int gidTableLength,
        int lid,
        boolean linkLayerEthernet,
        int activeSpeed,
        int activeWidth,
        long maxMsgSize,
        int pkeyTableLength) {
}
