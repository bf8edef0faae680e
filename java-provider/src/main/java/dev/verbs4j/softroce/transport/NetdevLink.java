package dev.verbs4j.softroce.transport;

import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The link of a device made on a network interface: one UDP socket (a {@link Link} of its
 * own) on each address of its GID table, port 4791, so that it receives on every address
 * and sends from the one a queue pair's source GID names. Each socket knows the address its
 * datagrams came to, which the ICRC of a received packet covers ({@link #receivedAt}). The
 * sockets change with the table ({@link #bind}). A sender value ({@link #sourcePort(InetAddress,
 * int)}) carries, above its 16-bit port, the GID index plus one of the socket it leaves from;
 * a sender without one leaves from the address that suits the destination: IPv4 for an
 * IPv4 destination, link-local for a link-local one, else a global IPv6 address.
 *
 * <p>Where every socket is the C library's ({@link NativeUdpLink}), waiting is one
 * {@code poll} over all of them and an eventfd of this link's; else it waits on one socket
 * at most a millisecond at a time. Used by one thread at a time, as every link.
 */
public final class NetdevLink implements Link {
    private final Function<InetSocketAddress, Link> open;
    private final int port;
    private final Link[] links;
    private final InetAddress[] addresses;
    private int current = -1;
    private int bound;
    private boolean holding;
    private Ipv4IdStamp stamp;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollFds;
    private int pollCount;
    private final int wakeFd;
    private final MemorySegment eventValue;
    private final MemorySegment one;
    private volatile boolean closed;

    /**
     * @param addresses by GID index, those to bind (null for none)
     * @param port the UDP port every socket binds
     * @param open makes the socket of one address ({@link UdpLink#open})
     */
    public NetdevLink(InetAddress[] addresses, int port, Function<InetSocketAddress, Link> open) {
        this.open = open;
        this.port = port;
        this.links = new Link[addresses.length];
        this.addresses = new InetAddress[addresses.length];
        this.pollFds = arena.allocate(8L * (addresses.length + 1), 8);
        this.eventValue = arena.allocate(ValueLayout.JAVA_LONG);
        this.one = arena.allocate(ValueLayout.JAVA_LONG);
        one.set(ValueLayout.JAVA_LONG, 0, 1L);
        this.wakeFd = NativeUdpLink.available() ? LibC.eventFd() : -1;
        bind(addresses);
    }

    /**
     * Opens a socket on each address new to the table and closes the ones of the addresses
     * gone. An address that cannot be bound now (taken by another socket) has none until the
     * table changes again.
     *
     * @param wanted by GID index, the addresses to bind (null for none)
     */
    public synchronized void bind(InetAddress[] wanted) {
        // What the step holds leaves from the sockets it was sent to before any of them closes.
        boolean wasHolding = holding;
        flushSends();
        for (int i = 0; i < links.length; i++) {
            InetAddress a = i < wanted.length ? wanted[i] : null;
            if (a != null && addresses[i] != null && Arrays.equals(a.getAddress(), addresses[i].getAddress())) {
                continue;
            }
            if (links[i] != null) {
                links[i].close();
                links[i] = null;
                addresses[i] = null;
            }
            if (a != null) {
                try {
                    Link l = open.apply(new InetSocketAddress(a, port));
                    if (stamp != null) {
                        l.segmentSends(stamp);
                    }
                    links[i] = l;
                    addresses[i] = a;
                } catch (UncheckedIOException e) {
                    // not bound: no socket on this address until the table changes
                }
            }
        }
        bound = 0;
        pollCount = 0;
        boolean allNative = wakeFd >= 0;
        for (Link l : links) {
            if (l != null) {
                bound++;
                if (l instanceof NativeUdpLink n) {
                    pollFds.set(ValueLayout.JAVA_INT, 8L * pollCount, n.socket());
                    pollFds.set(ValueLayout.JAVA_SHORT, 8L * pollCount + 4, LibC.POLLIN);
                    pollCount++;
                } else {
                    allNative = false;
                }
            }
        }
        if (allNative) {
            pollFds.set(ValueLayout.JAVA_INT, 8L * pollCount, wakeFd);
            pollFds.set(ValueLayout.JAVA_SHORT, 8L * pollCount + 4, LibC.POLLIN);
            pollCount++;
        } else {
            pollCount = -1;
        }
        current = -1;
        if (wasHolding) {
            holdSends();
        }
    }

    /** The addresses bound, by GID index (null where none). */
    public synchronized InetAddress[] boundAddresses() {
        return addresses.clone();
    }

    @Override
    public InetSocketAddress localAddress() {
        for (InetAddress a : addresses) {
            if (a != null) {
                return new InetSocketAddress(a, port);
            }
        }
        return new InetSocketAddress(port);
    }

    @Override
    public int receiveBufferBytes() {
        int least = 0;
        for (Link l : links) {
            if (l != null) {
                int b = l.receiveBufferBytes();
                least = least == 0 ? b : Math.min(least, b);
            }
        }
        return least;
    }

    @Override
    public int sourcePort(int wanted) {
        return port;
    }

    @Override
    public int sourcePort(InetAddress from, int wanted) {
        for (int i = 0; i < links.length; i++) {
            if (links[i] != null && Arrays.equals(addresses[i].getAddress(), from.getAddress())) {
                return (i + 1) << 16 | links[i].sourcePort(wanted);
            }
        }
        return port;
    }

    @Override
    public InetAddress sourceFor(InetSocketAddress destination) {
        int i = route(destination);
        return i >= 0 ? addresses[i] : localAddress().getAddress();
    }

    /** The index of the socket that sends to {@code destination} when the sender names none; -1 when there is none. */
    private int route(InetSocketAddress destination) {
        InetAddress to = destination.getAddress();
        boolean four = to instanceof Inet4Address;
        boolean linkLocal = to.isLinkLocalAddress() && !four;
        int fallback = -1;
        for (int i = 0; i < links.length; i++) {
            InetAddress a = addresses[i];
            if (a == null || (a instanceof Inet4Address) != four) {
                continue;
            }
            if (four || a.isLinkLocalAddress() == linkLocal) {
                return i;
            }
            if (fallback < 0) {
                fallback = i;
            }
        }
        return fallback;
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        int i = route(destination);
        return i >= 0 && links[i].send(buffer, length, destination);
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination, int sourcePort) {
        int i = (sourcePort >>> 16) - 1;
        if (i < 0 || i >= links.length || links[i] == null) {
            return send(buffer, length, destination);
        }
        return links[i].send(buffer, length, destination, sourcePort & 0xFFFF);
    }

    @Override
    public void holdSends() {
        holding = true;
        for (Link l : links) {
            if (l != null) {
                l.holdSends();
            }
        }
    }

    @Override
    public int flushSends() {
        holding = false;
        int refused = 0;
        for (Link l : links) {
            if (l != null) {
                refused += l.flushSends();
            }
        }
        return refused;
    }

    @Override
    public void segmentSends(Ipv4IdStamp idStamp) {
        this.stamp = idStamp;
        for (Link l : links) {
            if (l != null) {
                l.segmentSends(idStamp);
            }
        }
    }

    @Override
    public long segmentedRuns() {
        long n = 0;
        for (Link l : links) {
            if (l != null) {
                n += l.segmentedRuns();
            }
        }
        return n;
    }

    @Override
    public int receive(ByteBuffer buffer) {
        return receive(buffer, false);
    }

    @Override
    public int receiveInPlace(ByteBuffer buffer) {
        return receive(buffer, true);
    }

    /** The next datagram of any socket: the one that gave the last first, so a burst is taken whole. */
    private int receive(ByteBuffer buffer, boolean inPlace) {
        int start = Math.max(current, 0);
        for (int k = 0; k < links.length; k++) {
            int i = (start + k) % links.length;
            Link l = links[i];
            if (l == null) {
                continue;
            }
            int n = inPlace ? l.receiveInPlace(buffer) : l.receive(buffer);
            if (n >= 0) {
                current = i;
                return n;
            }
        }
        current = -1;
        return -1;
    }

    @Override
    public MemorySegment heldSegment() {
        return current >= 0 ? links[current].heldSegment() : null;
    }

    @Override
    public long heldOffset() {
        return current >= 0 ? links[current].heldOffset() : 0;
    }

    /** Only one socket can tell: with more, another may hold datagrams. */
    @Override
    public boolean lastWaiting() {
        return bound == 1 && current >= 0 && links[current].lastWaiting();
    }

    @Override
    public InetSocketAddress source() {
        return current >= 0 ? links[current].source() : null;
    }

    @Override
    public InetAddress receivedAt() {
        return current >= 0 ? addresses[current] : localAddress().getAddress();
    }

    @Override
    public void await(long timeoutNs) {
        if (closed) {
            return;
        }
        int count = pollCount;
        if (count < 0) {
            for (Link l : links) {
                if (l != null) {
                    l.await(Math.min(timeoutNs, 1_000_000L));
                    return;
                }
            }
            return;
        }
        for (Link l : links) {
            if (l instanceof NativeUdpLink n && n.pending()) {
                return;
            }
        }
        int ms = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutNs / 1_000_000));
        if (LibC.poll(pollFds, count, ms) > 0
                && (pollFds.get(ValueLayout.JAVA_SHORT, 8L * (count - 1) + 6) & LibC.POLLIN) != 0) {
            LibC.read(wakeFd, eventValue, 8);
        }
    }

    @Override
    public synchronized void wakeup() {
        if (closed) {
            return;
        }
        if (wakeFd >= 0) {
            LibC.write(wakeFd, one, 8);
        }
        for (Link l : links) {
            if (l != null) {
                l.wakeup();
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < links.length; i++) {
            if (links[i] != null) {
                links[i].close();
                links[i] = null;
            }
        }
        if (wakeFd >= 0) {
            LibC.close(wakeFd);
        }
        arena.close();
    }
}
