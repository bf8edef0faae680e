package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * The IP addresses and UDP ports that carry one direction of RoCEv2 traffic: what the ICRC
 * pseudo-header ({@link Icrc}) and the pcap writer need to rebuild the IP and UDP headers
 * that a UDP socket never shows. The addresses are kept pre-encoded, so building headers
 * from a flow never allocates; the engine keeps one flow per peer and direction and sets it
 * when the queue pair is connected, not per packet.
 *
 * <p>IPv4-mapped IPv6 addresses ({@code ::ffff:a.b.c.d}, how rdma-core writes the GID of an
 * IPv4 address) are stored as IPv4: such packets travel as IPv4 on the wire, as rxe sends them.
 * A flow is mutable and not thread-safe.
 */
public final class UdpFlow {
    /** The IANA port of RoCEv2 ({@code ROCE_V2_UDP_DPORT}). */
    public static final int ROCE_V2_PORT = 4791;

    private static final byte[] V4_MAPPED_PREFIX = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF};

    private final byte[] source = new byte[16];
    private final byte[] destination = new byte[16];
    private boolean ipv6;
    private int sourcePort;
    private int destinationPort;
    /** The ICRC terms of this flow's packets by length ({@link Icrc}); cleared when an end changes. */
    final IcrcTerms icrcTerms = new IcrcTerms();

    /** A flow from {@code source} to {@code destination}; both must resolve to the same IP version. */
    public static UdpFlow of(InetSocketAddress source, InetSocketAddress destination) {
        return new UdpFlow().set(source.getAddress(), source.getPort(), destination.getAddress(), destination.getPort());
    }

    /** Sets both ends from {@link InetAddress}es; allocates (InetAddress copies its bytes), so call it at setup. */
    public UdpFlow set(InetAddress sourceAddress, int sourcePort, InetAddress destinationAddress, int destinationPort) {
        return set(sourceAddress.getAddress(), sourcePort, destinationAddress.getAddress(), destinationPort);
    }

    /**
     * Sets both ends from raw network-order addresses of 4 or 16 bytes each.
     *
     * @throws IllegalArgumentException if an address is neither 4 nor 16 bytes, the two ends
     *         are of different IP versions, or a port is outside 0..65535
     */
    public UdpFlow set(byte[] sourceAddress, int sourcePort, byte[] destinationAddress, int destinationPort) {
        checkPort(sourcePort);
        checkPort(destinationPort);
        boolean sourceV6 = isIpv6(sourceAddress);
        if (sourceV6 != isIpv6(destinationAddress)) {
            throw new IllegalArgumentException("source and destination addresses are of different IP versions");
        }
        store(sourceAddress, source);
        store(destinationAddress, destination);
        this.ipv6 = sourceV6;
        this.sourcePort = sourcePort;
        this.destinationPort = destinationPort;
        icrcTerms.clear();
        return this;
    }

    /** Sets an IPv4 flow from addresses given as big-endian ints ({@code 10.0.0.1 = 0x0A000001}). */
    public UdpFlow setIpv4(int sourceAddress, int sourcePort, int destinationAddress, int destinationPort) {
        checkPort(sourcePort);
        checkPort(destinationPort);
        Arrays.fill(source, (byte) 0);
        Arrays.fill(destination, (byte) 0);
        putInt(source, sourceAddress);
        putInt(destination, destinationAddress);
        this.ipv6 = false;
        this.sourcePort = sourcePort;
        this.destinationPort = destinationPort;
        icrcTerms.clear();
        return this;
    }

    /** Makes this flow the reply direction of {@code other}: addresses and ports swapped. */
    public UdpFlow setReverseOf(UdpFlow other) {
        for (int i = 0; i < 16; i++) { // reads both ends before writing, so other may be this
            byte from = other.source[i];
            byte to = other.destination[i];
            source[i] = to;
            destination[i] = from;
        }
        int port = other.sourcePort;
        this.sourcePort = other.destinationPort;
        this.destinationPort = port;
        this.ipv6 = other.ipv6;
        icrcTerms.clear();
        return this;
    }

    public boolean isIpv6() {
        return ipv6;
    }

    /** 4 for IPv4, 16 for IPv6. */
    public int addressLength() {
        return ipv6 ? 16 : 4;
    }

    public int sourcePort() {
        return sourcePort;
    }

    public int destinationPort() {
        return destinationPort;
    }

    /** The IPv4 source address as a big-endian int; meaningless for IPv6. */
    public int ipv4Source() {
        return getInt(source);
    }

    /** The IPv4 destination address as a big-endian int; meaningless for IPv6. */
    public int ipv4Destination() {
        return getInt(destination);
    }

    /** Copies the 4- or 16-byte source address, network order, to {@code target} at {@code offset}. */
    public void copySourceAddress(MemorySegment target, long offset) {
        MemorySegment.copy(source, 0, target, ValueLayout.JAVA_BYTE, offset, addressLength());
    }

    /** Copies the 4- or 16-byte destination address, network order, to {@code target} at {@code offset}. */
    public void copyDestinationAddress(MemorySegment target, long offset) {
        MemorySegment.copy(destination, 0, target, ValueLayout.JAVA_BYTE, offset, addressLength());
    }

    @Override
    public String toString() {
        try {
            InetAddress from = InetAddress.getByAddress(Arrays.copyOf(source, addressLength()));
            InetAddress to = InetAddress.getByAddress(Arrays.copyOf(destination, addressLength()));
            return from.getHostAddress() + ":" + sourcePort + " -> " + to.getHostAddress() + ":" + destinationPort;
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean isIpv6(byte[] address) {
        if (address.length == 4) {
            return false;
        }
        if (address.length != 16) {
            throw new IllegalArgumentException("an IP address has 4 or 16 bytes, not " + address.length);
        }
        return !Arrays.equals(address, 0, 12, V4_MAPPED_PREFIX, 0, 12);
    }

    private static void store(byte[] address, byte[] target) {
        Arrays.fill(target, (byte) 0);
        if (address.length == 16 && !isIpv6(address)) {
            System.arraycopy(address, 12, target, 0, 4);
        } else {
            System.arraycopy(address, 0, target, 0, address.length);
        }
    }

    private static void checkPort(int port) {
        if ((port & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("UDP port out of range: " + port);
        }
    }

    private static void putInt(byte[] target, int value) {
        target[0] = (byte) (value >>> 24);
        target[1] = (byte) (value >>> 16);
        target[2] = (byte) (value >>> 8);
        target[3] = (byte) value;
    }

    private static int getInt(byte[] bytes) {
        return (bytes[0] & 0xFF) << 24 | (bytes[1] & 0xFF) << 16 | (bytes[2] & 0xFF) << 8 | (bytes[3] & 0xFF);
    }
}
