package dev.verbs4j.softroce.transport;

import jdk.net.ExtendedSocketOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * A UDP socket on the device's address (port 4791 for RoCEv2). The socket is never
 * connected and forces the Don't Fragment bit: Linux then sends IPv4 packets with
 * Identification 0, which is what our ICRC assumes (the ICRC covers that field, and a
 * UDP socket cannot see the value the kernel would otherwise choose).
 */
public final class UdpLink implements Link {
    private final DatagramChannel channel;
    private final Selector selector;
    private final InetSocketAddress local;
    private InetSocketAddress source;
    /** Source ports 0xC000-0xFFFF, the range RoCEv2 flows use (IB_ROCE_UDP_ENCAP_VALID_PORT_MIN up). */
    private static final int FIRST_SOURCE_PORT = 0xC000;
    private final DatagramChannel[] senders = new DatagramChannel[0x4000];
    private final boolean[] unavailable = new boolean[0x4000];

    /**
     * System property choosing the UDP socket implementation: {@code native} (the default:
     * {@link NativeUdpLink} where it is {@linkplain NativeUdpLink#available() available},
     * else this class) or {@code jdk} (this class).
     */
    public static final String IMPLEMENTATION_PROPERTY = "verbs4j.soft.udp";

    /** A link bound to {@code address}: native where available unless the property asks for the JDK's. */
    public static Link open(InetSocketAddress address) {
        return opensNative() ? new NativeUdpLink(address) : new UdpLink(address);
    }

    /**
     * Whether {@link #open} makes a {@link NativeUdpLink}: it is available and
     * {@link #IMPLEMENTATION_PROPERTY} does not ask for the JDK's sockets.
     *
     * @throws IllegalArgumentException when the property is neither {@code native} nor {@code jdk}
     */
    public static boolean opensNative() {
        String wanted = System.getProperty(IMPLEMENTATION_PROPERTY, "native");
        if (!wanted.equals("native") && !wanted.equals("jdk")) {
            throw new IllegalArgumentException(IMPLEMENTATION_PROPERTY + " must be native or jdk: " + wanted);
        }
        return wanted.equals("native") && NativeUdpLink.available();
    }

    /** Binds {@code address}. @throws UncheckedIOException when the address cannot be bound */
    public UdpLink(InetSocketAddress address) {
        try {
            channel = DatagramChannel.open(address.getAddress() instanceof java.net.Inet6Address
                    ? java.net.StandardProtocolFamily.INET6 : java.net.StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, false);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 8 << 20);
            if (channel.supportedOptions().contains(ExtendedSocketOptions.IP_DONTFRAGMENT)) {
                channel.setOption(ExtendedSocketOptions.IP_DONTFRAGMENT, true);
            }
            channel.bind(address);
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
            local = (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind RoCEv2 UDP socket on " + address + ": " + e.getMessage(), e);
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    /**
     * On Linux the JDK reports half of what the kernel does (the size asked for, which the
     * kernel doubles to count its buffers' overhead): this is the kernel's figure.
     */
    @Override
    public int receiveBufferBytes() {
        try {
            int reported = channel.getOption(StandardSocketOptions.SO_RCVBUF);
            return ON_LINUX ? 2 * reported : reported;
        } catch (IOException e) {
            return 0;
        }
    }

    private static final boolean ON_LINUX = System.getProperty("os.name", "").startsWith("Linux");

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        buffer.limit(length).position(0);
        try {
            return channel.send(buffer, destination) == length;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Binds (once) a send-only socket on the same address and {@code wanted}, as the kernel
     * rxe sends each QP's packets from a UDP source port derived from its flow (IBTA A17.5.1
     * recommends it for ECMP); falls back to the device's own port when that one is taken.
     */
    @Override
    public synchronized int sourcePort(int wanted) {
        if (wanted < FIRST_SOURCE_PORT || wanted > 0xFFFF || wanted == local.getPort()) {
            return local.getPort();
        }
        int slot = wanted - FIRST_SOURCE_PORT;
        if (senders[slot] == null && !unavailable[slot]) {
            try {
                DatagramChannel c = DatagramChannel.open(local.getAddress() instanceof java.net.Inet6Address
                        ? java.net.StandardProtocolFamily.INET6 : java.net.StandardProtocolFamily.INET);
                if (c.supportedOptions().contains(ExtendedSocketOptions.IP_DONTFRAGMENT)) {
                    c.setOption(ExtendedSocketOptions.IP_DONTFRAGMENT, true);
                }
                c.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
                c.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
                c.bind(new InetSocketAddress(local.getAddress(), wanted));
                c.configureBlocking(false);
                senders[slot] = c;
            } catch (IOException e) {
                unavailable[slot] = true;
            }
        }
        return senders[slot] != null ? wanted : local.getPort();
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination, int sourcePort) {
        int slot = sourcePort - FIRST_SOURCE_PORT;
        DatagramChannel c = slot >= 0 && slot < senders.length ? senders[slot] : null;
        if (c == null) {
            return send(buffer, length, destination);
        }
        buffer.limit(length).position(0);
        try {
            return c.send(buffer, destination) == length;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public int receive(ByteBuffer buffer) {
        buffer.clear();
        try {
            SocketAddress from = channel.receive(buffer);
            if (from == null) {
                return -1;
            }
            source = (InetSocketAddress) from;
            return buffer.position();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public InetSocketAddress source() {
        return source;
    }

    @Override
    public void await(long timeoutNs) {
        try {
            long ms = Math.max(1, timeoutNs / 1_000_000);
            selector.select(ms);
            selector.selectedKeys().clear();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() {
        try {
            selector.close();
            channel.close();
            for (DatagramChannel c : senders) {
                if (c != null) {
                    c.close();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
