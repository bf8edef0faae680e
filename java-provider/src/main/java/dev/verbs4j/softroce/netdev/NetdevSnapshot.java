package dev.verbs4j.softroce.netdev;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.List;

/**
 * What a network interface is at one moment: what the kernel's rxe reads of its netdev.
 *
 * @param name    the interface's name, e.g. {@code eth0}
 * @param index   its interface index (the scope of its link-local addresses)
 * @param mac     its hardware address, 6 bytes, or {@code null} when it has none
 * @param mtu     its MTU in bytes
 * @param running whether it is administratively up ({@code IFF_UP}, the kernel's {@code netif_running})
 * @param carrier whether it has carrier ({@code netif_carrier_ok})
 * @param ipv4    its IPv4 addresses, in the order the interface lists them
 * @param ipv6    its IPv6 addresses that passed duplicate address detection, link-local ones scoped to {@code index}
 */
public record NetdevSnapshot(String name, int index, byte[] mac, int mtu, boolean running, boolean carrier,
                             List<Inet4Address> ipv4, List<Inet6Address> ipv6) {
    public NetdevSnapshot {
        ipv4 = List.copyOf(ipv4);
        ipv6 = List.copyOf(ipv6);
        mac = mac == null ? null : mac.clone();
    }

    /** Whether rxe would call the port active: the interface is up and has carrier. */
    public boolean active() {
        return running && carrier;
    }
}
