package dev.verbs4j.softroce.engine;

/**
 * The UDP source port of a RoCEv2 flow, as the kernel derives it for a connected QP
 * ({@code rdma_get_udp_sport}): the IPv6 flow label, or when it is 0 a label computed from
 * both QP numbers, folded into 14 bits above 0xC000. Different QP pairs so spread over
 * ECMP paths (IBTA A17.5.1), and both ends of one connection pick the same port.
 */
public final class RoceSourcePort {
    private RoceSourcePort() {
    }

    /** The source port for a flow with this label between these QPs. */
    public static int of(int flowLabel, int localQpn, int remoteQpn) {
        int label = flowLabel != 0 ? flowLabel : flowLabel(localQpn, remoteQpn);
        int low = label & 0x03FFF;
        int high = label & 0xFC000;
        low ^= high >>> 14;
        return low | 0xC000;
    }

    /** {@code rdma_calc_flow_label}: a 20-bit label from the product of both QP numbers. */
    static int flowLabel(int localQpn, int remoteQpn) {
        long v = Integer.toUnsignedLong(localQpn) * Integer.toUnsignedLong(remoteQpn);
        v ^= v >>> 20;
        v ^= v >>> 40;
        return (int) (v & 0xFFFFF);
    }
}
