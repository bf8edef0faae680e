package dev.verbs4j.softroce.netdev;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads an interface the way rxe sees its netdev, from what Linux shows a process:
 * {@code /sys/class/net/IF/{ifindex,address,mtu,flags,carrier}} for the link,
 * {@code /proc/net/if_inet6} for the IPv6 addresses with their flags (Java's
 * {@link NetworkInterface} lists tentative addresses too, which cannot be bound yet), and
 * {@link NetworkInterface} for the IPv4 addresses, which Linux shows in no file. Both
 * folders are parameters, so a test reads a tree of its own.
 */
public final class LinuxNetdevReader implements NetdevReader {
    /** {@code IFF_UP} in {@code /sys/class/net/IF/flags}. */
    private static final int IFF_UP = 0x1;
    /** {@code IFA_F_TENTATIVE} and {@code IFA_F_DADFAILED} in {@code /proc/net/if_inet6}: an address not usable yet, or never. */
    private static final int IFA_F_UNUSABLE = 0x40 | 0x08;

    private final Path sysClassNet;
    private final Path ifInet6;
    private final Function<String, List<Inet4Address>> ipv4;

    /** Reads this machine's (this network namespace's) interfaces. */
    public LinuxNetdevReader() {
        this(Path.of("/sys/class/net"), Path.of("/proc/net/if_inet6"), LinuxNetdevReader::ipv4Of);
    }

    /**
     * Reads the link from {@code sysClassNet}, the IPv6 addresses from {@code ifInet6} and the
     * IPv4 addresses from {@code ipv4}.
     */
    public LinuxNetdevReader(Path sysClassNet, Path ifInet6, Function<String, List<Inet4Address>> ipv4) {
        this.sysClassNet = sysClassNet;
        this.ifInet6 = ifInet6;
        this.ipv4 = ipv4;
    }

    @Override
    public Optional<NetdevSnapshot> read(String name) throws IOException {
        Path dir = sysClassNet.resolve(name);
        if (name.isEmpty() || name.contains("/") || !Files.isDirectory(dir)) {
            return Optional.empty();
        }
        int index = Integer.parseInt(text(dir.resolve("ifindex")));
        int mtu = Integer.parseInt(text(dir.resolve("mtu")));
        int flags = Integer.decode(text(dir.resolve("flags")));
        boolean running = (flags & IFF_UP) != 0;
        // carrier cannot be read while the interface is down (EINVAL): then it has none.
        boolean carrier = running && "1".equals(textOrNull(dir.resolve("carrier")));
        byte[] mac = mac(textOrNull(dir.resolve("address")));
        return Optional.of(new NetdevSnapshot(name, index, mac, mtu, running, carrier, ipv4.apply(name), ipv6(name, index)));
    }

    /** The interface's usable IPv6 addresses, as {@code /proc/net/if_inet6} lists them. */
    List<Inet6Address> ipv6(String name, int index) throws IOException {
        List<Inet6Address> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(ifInet6);
        } catch (NoSuchFileException e) {
            return out; // IPv6 is off in this kernel
        }
        for (String line : lines) {
            // address, ifindex, prefix length, scope, flags, name: all hex but the name
            String[] f = line.trim().split("\\s+");
            if (f.length < 6 || !f[5].equals(name) || f[0].length() != 32) {
                continue;
            }
            if ((Integer.parseInt(f[4], 16) & IFA_F_UNUSABLE) != 0) {
                continue;
            }
            byte[] raw = HexFormat.of().parseHex(f[0]);
            boolean linkLocal = (raw[0] & 0xff) == 0xfe && (raw[1] & 0xc0) == 0x80;
            out.add(Inet6Address.getByAddress(null, raw, linkLocal ? index : -1));
        }
        return out;
    }

    /**
     * The interface's IPv4 addresses in the kernel's order (its list of them, which {@code ip
     * addr} shows and the RoCE GID cache walks). The JDK builds its list by putting each
     * address it is given in front, so it holds them last first: it is turned back here.
     */
    private static List<Inet4Address> ipv4Of(String name) {
        List<Inet4Address> out = new ArrayList<>();
        try {
            NetworkInterface nic = NetworkInterface.getByName(name);
            if (nic != null) {
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    InetAddress ip = a.getAddress();
                    if (ip instanceof Inet4Address four) {
                        out.addFirst(four);
                    }
                }
            }
        } catch (IOException e) {
            // an interface that vanished between the reads has none
        }
        return out;
    }

    /** A 6-byte hardware address in {@code aa:bb:cc:dd:ee:ff} form; null for none, all zeros (loopback) or another length. */
    static byte[] mac(String text) {
        if (text == null) {
            return null;
        }
        String[] parts = text.split(":");
        if (parts.length != 6) {
            return null;
        }
        byte[] mac = new byte[6];
        for (int i = 0; i < 6; i++) {
            mac[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return java.util.Arrays.equals(mac, new byte[6]) ? null : mac;
    }

    private static String text(Path file) throws IOException {
        return Files.readString(file).trim();
    }

    private static String textOrNull(Path file) {
        try {
            return text(file);
        } catch (IOException e) {
            return null;
        }
    }
}
