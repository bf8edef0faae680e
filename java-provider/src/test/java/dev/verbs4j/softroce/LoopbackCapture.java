package dev.verbs4j.softroce;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The IPv4 UDP datagrams the loopback device carries to one port, as the kernel built them:
 * a packet socket ({@code AF_PACKET}, which needs {@code CAP_NET_RAW}) on {@code lo} with the
 * virtio-net header ({@code PACKET_VNET_HDR}), so a run sent as one segmented message
 * ({@code UDP_SEGMENT}), which loopback carries whole, comes with its segment size and is
 * cut here as a segmenting kernel would: the datagrams after the first get its IPv4
 * Identification plus 1, 2, ... Only the copy the device receives is kept, not the one it
 * sends.
 */
final class LoopbackCapture implements AutoCloseable {
    /** One UDP datagram: its IPv4 addresses, ID and ports, and its payload. */
    record Datagram(InetAddress source, int sourcePort, InetAddress destination, int destinationPort, int ipv4Id,
                    byte[] payload) {
    }

    private static final int AF_PACKET = 17;
    private static final int SOCK_RAW = 3;
    private static final int SOCK_NONBLOCK = 0x800;
    private static final short ETH_P_IP_NETWORK_ORDER = 0x0008;
    private static final int SOL_PACKET = 263;
    private static final int PACKET_VNET_HDR = 15;
    private static final int PACKET_OUTGOING = 4;
    private static final int SOL_SOCKET = 1;
    /** {@code SO_RCVBUFFORCE}: a receive buffer past the system's limit, which the capability allows. */
    private static final int SO_RCVBUFFORCE = 33;
    private static final int VNET_HEADER = 10;
    private static final int ETHERNET_HEADER = 14;
    private static final int GSO_NONE = 0;
    private static final ValueLayout.OfShort NETWORK_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort HOST_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    private static final MethodHandle SOCKET;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle BIND;
    private static final MethodHandle RECVFROM;
    private static final MethodHandle IF_NAMETOINDEX;
    private static final MethodHandle CLOSE;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        ValueLayout i = ValueLayout.JAVA_INT;
        ValueLayout l = ValueLayout.JAVA_LONG;
        ValueLayout p = ValueLayout.ADDRESS;
        SOCKET = linker.downcallHandle(libc.find("socket").orElseThrow(), FunctionDescriptor.of(i, i, i, i));
        SETSOCKOPT = linker.downcallHandle(libc.find("setsockopt").orElseThrow(), FunctionDescriptor.of(i, i, i, i, p, i));
        BIND = linker.downcallHandle(libc.find("bind").orElseThrow(), FunctionDescriptor.of(i, i, p, i));
        RECVFROM = linker.downcallHandle(libc.find("recvfrom").orElseThrow(), FunctionDescriptor.of(l, i, p, l, i, p, p));
        IF_NAMETOINDEX = linker.downcallHandle(libc.find("if_nametoindex").orElseThrow(), FunctionDescriptor.of(i, p));
        CLOSE = linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(i, i));
    }

    private final Arena arena = Arena.ofConfined();
    private final int fd;
    private final int port;
    private final MemorySegment frame = arena.allocate(70_000, 8);
    private final MemorySegment link = arena.allocate(20, 8);
    private final MemorySegment linkLength = arena.allocate(ValueLayout.JAVA_INT);

    private LoopbackCapture(int fd, int port) {
        this.fd = fd;
        this.port = port;
    }

    /**
     * Whether this kernel gives a packet socket a segmented run with its segment size
     * ({@code VIRTIO_NET_HDR_GSO_UDP_L4}, Linux 6.2 on); an older one drops such frames from
     * the capture.
     */
    static boolean describesSegmentedRuns() {
        String[] version = System.getProperty("os.version", "").split("[.-]");
        try {
            int major = Integer.parseInt(version[0]);
            int minor = version.length > 1 ? Integer.parseInt(version[1]) : 0;
            return major > 6 || major == 6 && minor >= 2;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Starts capturing the datagrams to {@code port} on {@code lo}.
     *
     * @return null when the packet socket cannot be opened (no {@code CAP_NET_RAW}) or set up
     */
    static LoopbackCapture open(int port) {
        try (Arena scratch = Arena.ofConfined()) {
            int fd = (int) SOCKET.invokeExact(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, (int) ETH_P_IP_NETWORK_ORDER);
            if (fd < 0) {
                return null;
            }
            MemorySegment one = scratch.allocate(ValueLayout.JAVA_INT);
            one.set(ValueLayout.JAVA_INT, 0, 1);
            MemorySegment buffer = scratch.allocate(ValueLayout.JAVA_INT);
            buffer.set(ValueLayout.JAVA_INT, 0, 32 << 20);
            int index = (int) IF_NAMETOINDEX.invokeExact(scratch.allocateFrom("lo"));
            MemorySegment address = scratch.allocate(20, 8);
            address.set(ValueLayout.JAVA_SHORT, 0, (short) AF_PACKET);
            address.set(ValueLayout.JAVA_SHORT, 2, ETH_P_IP_NETWORK_ORDER);
            address.set(ValueLayout.JAVA_INT, 4, index);
            if (index == 0 || (int) SETSOCKOPT.invokeExact(fd, SOL_PACKET, PACKET_VNET_HDR, one, 4) != 0
                    || (int) SETSOCKOPT.invokeExact(fd, SOL_SOCKET, SO_RCVBUFFORCE, buffer, 4) != 0
                    || (int) BIND.invokeExact(fd, address, 20) != 0) {
                int ignored = (int) CLOSE.invokeExact(fd);
                return null;
            }
            return new LoopbackCapture(fd, port);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The datagrams captured since the last call, in the order the device received them. */
    List<Datagram> drain() {
        List<Datagram> datagrams = new ArrayList<>();
        try {
            while (true) {
                linkLength.set(ValueLayout.JAVA_INT, 0, 20);
                long n = (long) RECVFROM.invokeExact(fd, frame, frame.byteSize(), 0, link, linkLength);
                if (n < 0) {
                    return datagrams;
                }
                if (Byte.toUnsignedInt(link.get(ValueLayout.JAVA_BYTE, 10)) != PACKET_OUTGOING) {
                    cut(frame.asSlice(0, n), datagrams);
                }
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The datagrams of one frame to {@link #port}: one, or a run's, cut at its segment size. */
    private void cut(MemorySegment f, List<Datagram> into) throws UnknownHostException {
        int gsoType = Byte.toUnsignedInt(f.get(ValueLayout.JAVA_BYTE, 1));
        int segmentSize = Short.toUnsignedInt(f.get(HOST_SHORT, 4));
        long ip = VNET_HEADER + ETHERNET_HEADER;
        if ((f.get(ValueLayout.JAVA_BYTE, ip) & 0xF0) != 0x40 || f.get(ValueLayout.JAVA_BYTE, ip + 9) != 17) {
            return;
        }
        long udp = ip + (f.get(ValueLayout.JAVA_BYTE, ip) & 0x0F) * 4L;
        if (Short.toUnsignedInt(f.get(NETWORK_SHORT, udp + 2)) != port) {
            return;
        }
        int id = Short.toUnsignedInt(f.get(NETWORK_SHORT, ip + 4));
        InetAddress source = InetAddress.getByAddress(f.asSlice(ip + 12, 4).toArray(ValueLayout.JAVA_BYTE));
        InetAddress destination = InetAddress.getByAddress(f.asSlice(ip + 16, 4).toArray(ValueLayout.JAVA_BYTE));
        int sourcePort = Short.toUnsignedInt(f.get(NETWORK_SHORT, udp));
        long payload = udp + 8;
        long total = f.byteSize() - payload;
        long size = gsoType == GSO_NONE ? total : segmentSize;
        for (long at = 0; at < total; at += size, id = (id + 1) & 0xFFFF) {
            byte[] bytes = f.asSlice(payload + at, Math.min(size, total - at)).toArray(ValueLayout.JAVA_BYTE);
            into.add(new Datagram(source, sourcePort, destination, port, id, bytes));
        }
    }

    @Override
    public void close() {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        arena.close();
    }
}
