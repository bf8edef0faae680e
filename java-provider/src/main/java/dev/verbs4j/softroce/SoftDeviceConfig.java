package dev.verbs4j.softroce;

import dev.verbs4j.Mtu;
import dev.verbs4j.softroce.engine.DeviceLimits;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * How a soft device is set up: its name, the IP address and UDP port it binds (its GID is
 * that address) or the network interface it is made on, the port peers listen on, its
 * largest MTU and its limits. libibverbs has no counterpart: an rxe device is configured
 * through the kernel ({@code rdma link add rxe0 type rxe netdev eth0}), not through the
 * verbs.
 *
 * @param name     device name, e.g. {@code soft0}
 * @param address  the IP address the device owns; for a device on an interface, the wildcard
 *                 address ({@code 0.0.0.0}), which names no GID
 * @param port     the UDP port it binds (4791 for RoCEv2)
 * @param peerPort the UDP port its peers listen on (4791 for RoCEv2)
 * @param mtu      the port's largest MTU (and its active one, on one address)
 * @param limits   resource limits
 * @param netdev   the network interface the device is made on ({@link #onInterface}), or
 *                 null for a device on one address
 */
public record SoftDeviceConfig(String name, InetAddress address, int port, int peerPort, Mtu mtu, DeviceLimits limits,
                               String netdev) {
    /** The prefix of a device list entry that names an interface: {@code soft0=netdev:eth0}. */
    public static final String NETDEV_PREFIX = "netdev:";

    /**
     * A device on one address.
     *
     * @param name     device name, e.g. {@code soft0}
     * @param address  the IP address the device owns
     * @param port     the UDP port it binds (4791 for RoCEv2)
     * @param peerPort the UDP port its peers listen on (4791 for RoCEv2)
     * @param mtu      the port's largest (and active) MTU
     * @param limits   resource limits
     */
    public SoftDeviceConfig(String name, InetAddress address, int port, int peerPort, Mtu mtu, DeviceLimits limits) {
        this(name, address, port, peerPort, mtu, limits, null);
    }

    /**
     * A RoCEv2 device on network interface {@code netdev}, as {@code rdma link add NAME type rxe
     * netdev NETDEV} makes one: its GID table lists the interface's addresses in rxe's order,
     * its active MTU and its port state follow the interface's (docs/soft-provider.md, "A device
     * on a network interface").
     *
     * @param name the device name
     * @param netdev the interface's name, e.g. {@code eth0}
     * @return the configuration, with the default limits
     * @throws IllegalArgumentException when {@code netdev} is not an interface name
     */
    public static SoftDeviceConfig onInterface(String name, String netdev) {
        if (netdev.isEmpty() || netdev.length() > 15 || netdev.contains("/") || netdev.contains(",") || netdev.isBlank()) {
            throw new IllegalArgumentException("not a network interface name: '" + netdev + "'");
        }
        return new SoftDeviceConfig(name, loopback("0.0.0.0"), UdpFlow.ROCE_V2_PORT, UdpFlow.ROCE_V2_PORT, Mtu.MTU_4096,
                DeviceLimits.defaults().withGidTableLength(SoftContext.GID_TABLE_LENGTH), netdev);
    }
    /** The system property listing devices: {@code soft0=127.0.0.1,soft1=127.0.0.2:4791}. */
    public static final String DEVICES_PROPERTY = "verbs4j.soft.devices";
    /** The default: two devices on loopback addresses, enough for a demo on one machine. */
    public static final String DEFAULT_DEVICES = "soft0=127.0.0.1,soft1=127.0.0.2";

    /**
     * A RoCEv2 device on {@code address}:4791 with MTU 4096.
     *
     * @param name the device name
     * @param address the IP address it owns
     * @return the configuration, with the default limits
     */
    public static SoftDeviceConfig of(String name, InetAddress address) {
        return new SoftDeviceConfig(name, address, UdpFlow.ROCE_V2_PORT, UdpFlow.ROCE_V2_PORT, Mtu.MTU_4096, DeviceLimits.defaults());
    }

    /**
     * Parses a device list: {@code name=address[:port]} or {@code name=netdev:IFNAME}
     * ({@link #onInterface}) entries separated by commas, an IPv6
     * address with a port in brackets ({@code soft0=[fd00::2]:4792}), a link-local one with its
     * scope ({@code soft0=fe80::2%eth0}, see {@link #ipLiteral}).
     * An entry without a port uses 4791; the port given is both the bound port and the peers'.
     *
     * @throws IllegalArgumentException for a malformed entry
     * @param list e.g. {@code soft0=127.0.0.1,soft1=127.0.0.2:4791}; blank entries are skipped
     * @return the configurations, in order
     */
    public static List<SoftDeviceConfig> parse(String list) {
        List<SoftDeviceConfig> configs = new ArrayList<>();
        for (String entry : list.split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("soft device entry must be name=address[:port]: " + e);
            }
            String name = e.substring(0, eq);
            String addr = e.substring(eq + 1);
            if (addr.startsWith(NETDEV_PREFIX)) {
                configs.add(onInterface(name, addr.substring(NETDEV_PREFIX.length())));
                continue;
            }
            int port = UdpFlow.ROCE_V2_PORT;
            int close = addr.lastIndexOf(']');
            int colon = addr.lastIndexOf(':');
            boolean bracketed = addr.startsWith("[") && close > 0;
            if (bracketed ? colon == close + 1 : colon > 0 && addr.indexOf(':') == colon) {
                port = Integer.parseInt(addr.substring(colon + 1));
                addr = addr.substring(0, colon);
            }
            try {
                InetAddress ip = ipLiteral(bracketed ? addr.substring(1, close) : addr);
                configs.add(new SoftDeviceConfig(name, ip, port, port, Mtu.MTU_4096, DeviceLimits.defaults()));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("not an IP address in soft device entry " + e, ex);
            }
        }
        return configs;
    }

    /**
     * An IP address literal, never a host name: IPv4, or IPv6 with an optional scope after
     * {@code %}, given as a number or as an interface's name ({@code fe80::1%eth0}), as a
     * link-local address needs.
     *
     * @param literal the address
     * @return the address, with its scope
     * @throws IllegalArgumentException when it is not a literal, or names no interface
     */
    public static InetAddress ipLiteral(String literal) {
        int percent = literal.indexOf('%');
        if (percent < 0) {
            return InetAddress.ofLiteral(literal);
        }
        String scope = literal.substring(percent + 1);
        InetAddress bare = InetAddress.ofLiteral(literal.substring(0, percent));
        if (!(bare instanceof java.net.Inet6Address)) {
            throw new IllegalArgumentException("a scope needs an IPv6 address: " + literal);
        }
        try {
            if (!scope.isEmpty() && scope.chars().allMatch(Character::isDigit)) {
                return java.net.Inet6Address.getByAddress(null, bare.getAddress(), Integer.parseInt(scope));
            }
            java.net.NetworkInterface nic = java.net.NetworkInterface.getByName(scope);
            if (nic == null) {
                throw new IllegalArgumentException("no interface " + scope + " for the scope of " + literal);
            }
            return java.net.Inet6Address.getByAddress(null, bare.getAddress(), nic.getIndex());
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot scope " + literal + ": " + e.getMessage(), e);
        }
    }

    /**
     * The configured devices: the property, else {@link #DEFAULT_DEVICES}.
     *
     * @return the configurations
     * @throws IllegalArgumentException for a malformed property
     */
    public static List<SoftDeviceConfig> fromSystemProperties() {
        return parse(System.getProperty(DEVICES_PROPERTY, DEFAULT_DEVICES));
    }

    /**
     * A copy with another MTU.
     *
     * @param newMtu the port's largest MTU
     * @return the copy
     */
    public SoftDeviceConfig withMtu(Mtu newMtu) {
        return new SoftDeviceConfig(name, address, port, peerPort, newMtu, limits, netdev);
    }

    /**
     * A copy with other ports.
     *
     * @param newPort the UDP port the device binds
     * @param newPeerPort the UDP port its packets go to
     * @return the copy
     */
    public SoftDeviceConfig withPorts(int newPort, int newPeerPort) {
        return new SoftDeviceConfig(name, address, newPort, newPeerPort, mtu, limits);
    }

    static InetAddress loopback(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
