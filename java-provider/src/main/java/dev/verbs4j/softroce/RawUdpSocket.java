package dev.verbs4j.softroce;

import dev.verbs4j.softroce.transport.Ipv4IdStamp;
import dev.verbs4j.softroce.transport.NativeUdpLink;
import dev.verbs4j.softroce.transport.UdpLink;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A bare UDP socket of the kind a soft device sends and receives with, for measuring the
 * machine's raw limit with the engine's own system calls: receives as a device's link makes
 * them (one call per lone message, {@code recvmmsg} for a burst, as
 * {@code verbs4j.soft.udp.batch} sets, and runs of datagrams the kernel joined handed out one
 * by one), and sends that can be held and handed to the kernel together ({@code sendmmsg},
 * runs of one size to one destination as one segmented send, as a device's step sends what it
 * produced). It carries no RoCE and is not a verbs object.
 * Available where the soft provider's sockets go through the C library ({@link #available}).
 * Used by one thread at a time, except {@link #close}.
 */
public final class RawUdpSocket implements AutoCloseable {
    private final NativeUdpLink link;

    /**
     * Whether this platform and the module's native access let such a socket be opened.
     *
     * @return true where a soft device's sockets can go through the C library
     */
    public static boolean available() {
        return NativeUdpLink.available();
    }

    /**
     * Whether the soft devices of this process send and receive with sockets of this kind (the
     * C library's, unless {@code verbs4j.soft.udp=jdk} asks for the JDK's).
     *
     * @return true where a device opened now would use one
     */
    public static boolean usedByDevices() {
        return UdpLink.opensNative();
    }

    /**
     * Binds {@code address}.
     *
     * @param address the local address and port
     * @throws IllegalStateException when {@link #available} is false
     * @throws java.io.UncheckedIOException when the address cannot be bound
     */
    public RawUdpSocket(InetSocketAddress address) {
        if (!available()) {
            throw new IllegalStateException("raw UDP sockets need the C library and native access for dev.verbs4j.soft");
        }
        link = new NativeUdpLink(address);
        link.segmentSends(Ipv4IdStamp.NONE);
    }

    /**
     * The bound address.
     *
     * @return the address and port the socket is bound to
     */
    public InetSocketAddress localAddress() {
        return link.localAddress();
    }

    /** Keeps what is sent from now on until {@link #flushSends}, as a soft device's step does. */
    public void holdSends() {
        link.holdSends();
    }

    /**
     * Hands what was kept to the kernel, in order, and sends at once again.
     *
     * @return how many of the kept datagrams the kernel refused (they did not go)
     */
    public int flushSends() {
        return link.flushSends();
    }

    /**
     * Sends a datagram, or keeps it while sends are held.
     *
     * @param buffer the datagram, from position 0
     * @param length its length
     * @param destination where it goes
     * @return false when the kernel refused it
     */
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        return link.send(buffer, length, destination);
    }

    /**
     * Receives one datagram, if one is waiting.
     *
     * @param buffer where it goes, from position 0
     * @return its length, or -1 when none is waiting
     */
    public int receive(ByteBuffer buffer) {
        return link.receive(buffer);
    }

    @Override
    public void close() {
        link.close();
    }
}
