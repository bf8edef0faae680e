package dev.verbs4j.softroce.netdev;

import dev.verbs4j.Mtu;

/**
 * The active MTU rxe gives a port on a netdev of a given MTU ({@code rxe_set_mtu}): the
 * largest IB MTU that fits in the netdev's MTU less {@value #HEADER_BYTES} bytes of headers,
 * 256 when none fits, never above 4096. The 80 bytes are rxe's {@code RXE_MAX_HDR_LENGTH}:
 * room for an IPv6 header (40), UDP (8), BTH (12), the longest extended header and the
 * ICRC. A 1500-byte Ethernet MTU gives 1024, 1000 gives 512, 9000 gives 4096.
 */
public final class RxeMtu {
    /** What rxe takes off the netdev's MTU for the headers of a RoCE v2 packet. */
    public static final int HEADER_BYTES = 80;

    private RxeMtu() {
    }

    /**
     * The port's active MTU on a netdev of {@code netdevMtu} bytes.
     *
     * @param netdevMtu the interface's MTU
     * @return the IB MTU
     */
    public static Mtu of(int netdevMtu) {
        int room = netdevMtu - HEADER_BYTES;
        Mtu best = Mtu.MTU_256;
        for (Mtu m : Mtu.values()) {
            if (m.bytes() <= room && m.bytes() > best.bytes()) {
                best = m;
            }
        }
        return best;
    }
}
