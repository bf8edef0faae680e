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

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        buffer.limit(length).position(0);
        try {
            return channel.send(buffer, destination) == length;
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
