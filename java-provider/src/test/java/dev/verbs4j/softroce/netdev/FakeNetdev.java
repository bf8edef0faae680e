package dev.verbs4j.softroce.netdev;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An interface a test changes at will, read as {@link LinuxNetdevReader} reads a real one. */
public final class FakeNetdev implements NetdevReader {
    public final String name;
    public final int index;
    public byte[] mac = {(byte) 0x9e, (byte) 0xf8, (byte) 0xf2, 0x56, 0x6b, 0x6a};
    public int mtu = 1500;
    public boolean running = true;
    public boolean carrier = true;
    public final List<Inet4Address> ipv4 = new ArrayList<>();
    public final List<Inet6Address> ipv6 = new ArrayList<>();
    public boolean present = true;

    public FakeNetdev(String name, int index) {
        this.name = name;
        this.index = index;
    }

    /** Adds an address (a link-local one scoped to the interface). */
    public FakeNetdev add(String literal) {
        InetAddress a = InetAddress.ofLiteral(literal);
        if (a instanceof Inet4Address four) {
            ipv4.add(four);
        } else {
            try {
                ipv6.add(Inet6Address.getByAddress(null, a.getAddress(), a.isLinkLocalAddress() ? index : -1));
            } catch (UnknownHostException e) {
                throw new AssertionError(e);
            }
        }
        return this;
    }

    /** Removes an address. */
    public FakeNetdev remove(String literal) {
        InetAddress a = InetAddress.ofLiteral(literal);
        ipv4.remove(a);
        ipv6.removeIf(six -> java.util.Arrays.equals(six.getAddress(), a.getAddress()));
        return this;
    }

    @Override
    public Optional<NetdevSnapshot> read(String asked) {
        if (!present || !asked.equals(name)) {
            return Optional.empty();
        }
        return Optional.of(new NetdevSnapshot(name, index, mac, mtu, running, carrier, ipv4, ipv6));
    }
}
