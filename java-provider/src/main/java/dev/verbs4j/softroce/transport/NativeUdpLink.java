package dev.verbs4j.softroce.transport;

import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The UDP socket of {@link UdpLink}, made and driven through the C library on Linux: the
 * same socket options and the same packets, but received into socket addresses this link
 * owns: a lone datagram with {@code recvfrom}, a burst with {@code recvmmsg} (up to
 * {@link #BATCH_PROPERTY} at a time). Where the kernel joins runs of datagrams of one size
 * that come together ({@link #SEGMENT_PROPERTY}), a lone message is received with
 * {@code recvmsg} and its control message, and each message's datagrams are handed out one
 * by one; held sends go out in runs the kernel cuts apart ({@link SendBatch}). The sender of each datagram is looked up in a small table
 * of the sources seen so far, so a device talking with many queue pairs (each sending from
 * its own UDP source port) gets the same {@link InetSocketAddress} object for each sender
 * and allocates nothing per packet; {@code DatagramChannel.receive} remembers only the last
 * sender and builds a new address whenever it changes. Waiting is {@code poll} on the
 * socket and an eventfd that {@link #wakeup} writes.
 */
public final class NativeUdpLink implements Link {
    /** Source ports 0xC000-0xFFFF, the range RoCEv2 flows use (IB_ROCE_UDP_ENCAP_VALID_PORT_MIN up). */
    private static final int FIRST_SOURCE_PORT = 0xC000;
    private static final int SOURCES = SOURCE_SLOTS;
    private static final int DESTINATIONS = 256;
    /**
     * System property: how many datagrams one system call may receive ({@code recvmmsg}); 1
     * receives each with its own {@code recvfrom}.
     */
    public static final String BATCH_PROPERTY = "verbs4j.soft.udp.batch";
    /**
     * The batch when the property does not say: 16, the datagrams a peer's step hands the
     * kernel in one {@code sendmmsg}. Once two datagrams in a row have come, a burst is
     * fetched with one {@code recvmmsg} instead of a {@code recvfrom} each; a lone datagram
     * still costs one {@code recvfrom} (one {@code recvmsg} where the kernel joins runs). On the 2-core machine, where entering and leaving
     * {@code recvfrom} took about 30 % of a 64 KiB WRITE stream's time, such streams moved
     * 1.4-1.5x as much.
     */
    public static final int DEFAULT_BATCH = 16;
    /** The largest batch (the kernel's own limit, UIO_MAXIOV, is 1024). */
    public static final int MAX_BATCH = 256;
    /**
     * System property, {@code true} unless set to {@code false}: whether the kernel cuts runs
     * of held datagrams of one size to one destination out of one send ({@code UDP_SEGMENT},
     * {@link Link#segmentSends}) and joins such runs that come in into one message
     * ({@code UDP_GRO}), where it can. IPv4 sockets only.
     */
    public static final String SEGMENT_PROPERTY = "verbs4j.soft.udp.segment";

    private final Arena arena = Arena.ofShared();
    private final int fd;
    private final int wakeFd;
    private final boolean ipv6;
    private final InetSocketAddress local;
    private final MemorySegment sourceAddress;
    private final MemorySegment sourceLength;
    private final MemorySegment destination;
    private final MemorySegment pollFds;
    private final MemorySegment eventValue;
    /** The 1 that {@link #wakeup} adds to the eventfd, from any thread. */
    private final MemorySegment one;
    /** Datagrams fetched together, handed out one per {@link #receive}; null with a batch of 1. */
    private final ReceiveBatch batch;
    /**
     * Datagrams in a row that {@code recvfrom} returned. A lone datagram (a request, a reply)
     * costs less alone: {@code recvmmsg} would try the socket again for a second one and
     * find it empty. Once {@link #BURST} have come in a row the link fetches batches, until
     * one holds fewer than {@link #BURST}.
     */
    private int singles;
    private boolean bursting;
    private static final int BURST = 2;
    /** Whether the kernel may join datagrams that come together into one message ({@code UDP_GRO}): every receive then goes through the batch. */
    private final boolean joined;
    /** What held datagrams owe to their IPv4 ID when runs of them are segmented; null sends each alone. */
    private Ipv4IdStamp segmentStamp;
    private final int[] senders = new int[0x4000];
    private final boolean[] unavailable = new boolean[0x4000];

    /**
     * Senders seen so far, in an open-addressing table keyed by a hash of their address and
     * port: the socket address family, the port (as the socket address holds it), the raw
     * address in two longs, and its Java form.
     */
    private final short[] sourceFamilies = new short[SOURCES];
    private final int[] sourcePorts = new int[SOURCES];
    private final long[] sourceHigh = new long[SOURCES];
    private final long[] sourceLow = new long[SOURCES];
    private final InetSocketAddress[] sources = new InetSocketAddress[SOURCES];
    private InetSocketAddress source;
    private int sourceSlot = -1;
    /** Set before the descriptors are closed: no call touches them afterwards (their numbers may be reused). */
    private volatile boolean closed;

    /** Datagrams kept between {@link #holdSends} and {@link #flushSends}; made on first use. */
    private SendBatch sendBatch;
    private boolean holding;
    /** Datagrams of the current hold the kernel refused when a full batch went early. */
    private int refusedWhileHolding;
    /** The largest datagram a hold keeps (a RoCE packet of the 4096-byte MTU and its headers); a larger one is sent at once, after what is kept. */
    private static final int HELD_DATAGRAM_ROOM = 4096 + 256;

    private ByteBuffer receiveBuffer;
    private MemorySegment receiveSegment;
    /** Whether the receive under way is a {@link #receiveInPlace}: a datagram of the batch stays there. */
    private boolean leaveInBatch;
    /** Where the last datagram {@link #receiveInPlace} left in the batch lies; {@code null} when it was copied. */
    private MemorySegment held;
    private long heldOffset;
    /** Whether the last datagram received came out of the batch. */
    private boolean fromBatch;
    private ByteBuffer sendBuffer;
    private MemorySegment sendSegment;
    /**
     * Destinations met so far, in an open-addressing table keyed by identity (the engine
     * keeps one address object per peer): each one's socket address, encoded once.
     */
    private final InetSocketAddress[] destinationKeys = new InetSocketAddress[DESTINATIONS];
    private final int[] destinationLengths = new int[DESTINATIONS];
    private final MemorySegment[] destinations = new MemorySegment[DESTINATIONS];

    /**
     * Whether this link can be used: native access is enabled for this code (for example
     * {@code --enable-native-access=ALL-UNNAMED}; without it the C library is not even looked
     * up, so no warning is printed) and the platform has the C functions it calls.
     */
    public static boolean available() {
        return NativeUdpLink.class.getModule().isNativeAccessEnabled() && LibC.AVAILABLE;
    }

    /** Binds {@code address}, receiving the {@link #BATCH_PROPERTY} at a time. @throws UncheckedIOException when the address cannot be bound */
    public NativeUdpLink(InetSocketAddress address) {
        this(address, configuredBatch());
    }

    /** The batch {@link #BATCH_PROPERTY} asks for. @throws IllegalArgumentException when it is not 1 to {@link #MAX_BATCH} */
    public static int configuredBatch() {
        return batchOf(System.getProperty(BATCH_PROPERTY));
    }

    /** The batch {@code value} (the property's text, null when unset) asks for. */
    static int batchOf(String value) {
        if (value == null) {
            return DEFAULT_BATCH;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1 && n <= MAX_BATCH) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(BATCH_PROPERTY + " must be 1 to " + MAX_BATCH + ": " + value);
    }

    /**
     * Binds {@code address}; receives up to {@code batchSize} datagrams per system call.
     *
     * @throws UncheckedIOException when the address cannot be bound
     * @throws IllegalArgumentException when the batch is not 1 to {@link #MAX_BATCH}
     */
    public NativeUdpLink(InetSocketAddress address, int batchSize) {
        if (batchSize < 1 || batchSize > MAX_BATCH) {
            throw new IllegalArgumentException("batch must be 1 to " + MAX_BATCH + ": " + batchSize);
        }
        batch = batchSize == 1 ? null : new ReceiveBatch(arena, batchSize);
        ipv6 = !(address.getAddress() instanceof Inet4Address);
        sourceAddress = forCalls(arena.allocate(LibC.SOCKADDR_SIZE, 8));
        sourceLength = forCalls(arena.allocate(ValueLayout.JAVA_INT));
        destination = arena.allocate(LibC.SOCKADDR_SIZE, 8);
        MemorySegment slots = arena.allocate(DESTINATIONS * 32L, 8);
        for (int i = 0; i < DESTINATIONS; i++) {
            destinations[i] = forCalls(slots.asSlice(i * 32L, 32));
        }
        pollFds = arena.allocate(16, 8);
        eventValue = arena.allocate(ValueLayout.JAVA_LONG);
        one = arena.allocate(ValueLayout.JAVA_LONG);
        one.set(ValueLayout.JAVA_LONG, 0, 1L);
        int socket = -1;
        int event = -1;
        try {
            socket = LibC.udpSocket(ipv6, 8 << 20, 8 << 20);
            LibC.bind(socket, destination, LibC.encode(destination, ipv6, address), address.toString());
            event = LibC.eventFd();
        } catch (UncheckedIOException e) {
            LibC.close(socket);
            LibC.close(event);
            arena.close();
            throw e;
        }
        fd = socket;
        wakeFd = event;
        local = LibC.localAddress(fd, sourceAddress, sourceLength, address);
        joined = batch != null && segments() && LibC.joinReceives(fd);
        pollFds.set(ValueLayout.JAVA_INT, 0, fd);
        pollFds.set(ValueLayout.JAVA_SHORT, 4, LibC.POLLIN);
        pollFds.set(ValueLayout.JAVA_INT, 8, wakeFd);
        pollFds.set(ValueLayout.JAVA_SHORT, 12, LibC.POLLIN);
        java.util.Arrays.fill(senders, -1);
    }

    /** Whether {@link #SEGMENT_PROPERTY} lets this link segment and join: an IPv4 socket, and the property not {@code false}. */
    private boolean segments() {
        return !ipv6 && !"false".equalsIgnoreCase(System.getProperty(SEGMENT_PROPERTY, "true").trim());
    }

    /**
     * The same native memory without its arena: a downcall given a segment of a shared arena
     * acquires and releases the arena (two atomic updates) for each such argument. The link's
     * contract (used by one thread at a time, which also closes it, before the engine frees
     * its buffers) keeps the memory alive while a call uses it. A heap segment stays as it is.
     */
    static MemorySegment forCalls(MemorySegment s) {
        return s.isNative() ? MemorySegment.ofAddress(s.address()).reinterpret(s.byteSize()) : s;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public int receiveBufferBytes() {
        return closed ? 0 : LibC.receiveBuffer(fd);
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination) {
        return sendFrom(fd, buffer, length, destination);
    }

    /**
     * Binds (once) a send-only socket on the same address and {@code wanted}, as the kernel
     * rxe sends each QP's packets from a UDP source port derived from its flow; falls back to
     * the device's own port when that one is taken.
     */
    @Override
    public synchronized int sourcePort(int wanted) {
        if (wanted < FIRST_SOURCE_PORT || wanted > 0xFFFF || wanted == local.getPort()) {
            return local.getPort();
        }
        int slot = wanted - FIRST_SOURCE_PORT;
        if (senders[slot] < 0 && !unavailable[slot]) {
            int socket = -1;
            try (Arena scratch = Arena.ofConfined()) {
                // Send-only: a large send buffer (as UdpLink's senders), a token receive buffer.
                socket = LibC.udpSocket(ipv6, 4096, 1 << 20);
                MemorySegment at = scratch.allocate(LibC.SOCKADDR_SIZE, 8);
                InetSocketAddress address = new InetSocketAddress(local.getAddress(), wanted);
                LibC.bind(socket, at, LibC.encode(at, ipv6, address), address.toString());
                senders[slot] = socket;
            } catch (UncheckedIOException e) {
                LibC.close(socket);
                unavailable[slot] = true;
            }
        }
        return senders[slot] >= 0 ? wanted : local.getPort();
    }

    @Override
    public boolean send(ByteBuffer buffer, int length, InetSocketAddress destination, int sourcePort) {
        return sendFrom(socketFor(sourcePort), buffer, length, destination);
    }

    /** The socket that sends from {@code sourcePort}: its own, when {@link #sourcePort} bound one, else the device's. */
    private int socketFor(int sourcePort) {
        int slot = sourcePort - FIRST_SOURCE_PORT;
        int socket = slot >= 0 && slot < senders.length ? senders[slot] : -1;
        return socket >= 0 ? socket : fd;
    }

    private boolean sendFrom(int socket, ByteBuffer buffer, int length, InetSocketAddress to) {
        if (closed) {
            return false;
        }
        if (buffer != sendBuffer) {
            sendBuffer = buffer;
            sendSegment = forCalls(MemorySegment.ofBuffer(buffer.duplicate().clear()));
        }
        return sendFrom(socket, sendSegment, length, to);
    }

    private boolean sendFrom(int socket, MemorySegment packet, int length, InetSocketAddress to) {
        int slot = destinationSlot(to);
        if (destinationLengths[slot] < 0) {
            return false;
        }
        if (length > packet.byteSize()) {
            return false;
        }
        if (holding) {
            if (length <= sendBatch().room()) {
                if (!sendBatch.accepts(socket)) {
                    refusedWhileHolding += sendBatch.send();
                }
                sendBatch.add(socket, packet, length, destinations[slot], destinationLengths[slot]);
                return true;
            }
            refusedWhileHolding += sendBatch.send();
        }
        return LibC.sendTo(socket, packet, length, destinations[slot], destinationLengths[slot]) == length;
    }

    /** The batch held sends are kept in, made on first use. */
    private SendBatch sendBatch() {
        if (sendBatch == null) {
            sendBatch = new SendBatch(arena, HELD_DATAGRAM_ROOM);
            sendBatch.segmentRuns(arena, segmentStamp);
        }
        return sendBatch;
    }

    /** While sends are held, the batch's room for the next datagram ({@link #HELD_DATAGRAM_ROOM} bytes); else null. */
    @Override
    public MemorySegment sendSlot() {
        return holding && !closed ? sendBatch().slot() : null;
    }

    @Override
    public boolean sendFromSlot(int length, InetSocketAddress destination, int sourcePort) {
        if (closed) {
            return false;
        }
        return sendFrom(socketFor(sourcePort), sendBatch().slot(), length, destination);
    }

    /** Segments runs of held datagrams where {@link #SEGMENT_PROPERTY} allows ({@link Link#segmentSends}). */
    @Override
    public void segmentSends(Ipv4IdStamp stamp) {
        if (segments()) {
            segmentStamp = stamp;
            if (sendBatch != null) {
                sendBatch.segmentRuns(arena, stamp);
            }
        }
    }

    /** Whether held runs are sent segmented now (asked for, allowed, and not given up on). */
    boolean segmentsSends() {
        return sendBatch != null ? sendBatch.segmentsRuns() : segmentStamp != null;
    }

    @Override
    public long segmentedRuns() {
        return sendBatch == null ? 0 : sendBatch.runsSent();
    }

    /** Messages received that held a run of datagrams the kernel joined. */
    long joinedMessagesReceived() {
        return batch == null ? 0 : batch.joinedMessages();
    }

    /** The socket the link receives and sends with (for tests that set an option on it). */
    int socket() {
        return fd;
    }

    /** Whether datagrams fetched together wait in the batch: a receive finds one without asking the kernel. */
    boolean pending() {
        return batch != null && batch.pending();
    }

    /** Whether the kernel may join datagrams that come together into one message for this link. */
    boolean joinsReceives() {
        return joined;
    }

    @Override
    public void holdSends() {
        holding = !closed;
    }

    @Override
    public int flushSends() {
        holding = false;
        int refused = refusedWhileHolding;
        refusedWhileHolding = 0;
        if (sendBatch == null) {
            return refused;
        }
        return refused + (closed ? sendBatch.discard() : sendBatch.send());
    }

    /** The slot holding {@code to}'s encoded address; a new destination is encoded (the only allocation). */
    private int destinationSlot(InetSocketAddress to) {
        int home = System.identityHashCode(to) & (DESTINATIONS - 1);
        int slot = home;
        for (int probe = 0; probe < DESTINATIONS; probe++, slot = (slot + 1) & (DESTINATIONS - 1)) {
            InetSocketAddress known = destinationKeys[slot];
            if (known == to) {
                return slot;
            }
            if (known == null) {
                break;
            }
        }
        if (destinationKeys[slot] != null) {
            // Every slot is taken: this destination replaces the one in its home slot.
            slot = home;
        }
        destinationLengths[slot] = LibC.encode(destinations[slot], ipv6, to);
        destinationKeys[slot] = to;
        return slot;
    }

    @Override
    public int receiveInPlace(ByteBuffer buffer) {
        leaveInBatch = true;
        try {
            return receive(buffer);
        } finally {
            leaveInBatch = false;
        }
    }

    @Override
    public MemorySegment heldSegment() {
        return held;
    }

    @Override
    public long heldOffset() {
        return heldOffset;
    }

    @Override
    public int receive(ByteBuffer buffer) {
        held = null;
        fromBatch = false;
        if (buffer != receiveBuffer) {
            receiveBuffer = buffer;
            receiveSegment = forCalls(MemorySegment.ofBuffer(buffer.duplicate().clear()));
        }
        buffer.clear();
        if (closed) {
            return -1;
        }
        if (batch != null) {
            if (batch.pending()) {
                return receiveFromBatch(buffer);
            }
            if (bursting) {
                int fetched = batch.fetch(fd);
                bursting = fetched >= BURST;
                return fetched > 0 ? receiveFromBatch(buffer) : -1;
            }
            if (joined) {
                // A lone message may hold a joined run: it comes into the batch, with its control message.
                if (batch.fetchOne(fd) == 0) {
                    singles = 0;
                    return -1;
                }
                countSingle();
                return receiveFromBatch(buffer);
            }
        }
        sourceLength.set(ValueLayout.JAVA_INT, 0, (int) LibC.SOCKADDR_SIZE);
        long n = LibC.receiveFrom(fd, receiveSegment, receiveSegment.byteSize(), sourceAddress, sourceLength);
        if (n < 0) {
            singles = 0;
            return -1;
        }
        if (batch != null) {
            countSingle();
        }
        source = sourceOf(sourceAddress);
        if (source == null) {
            return -1;
        }
        buffer.position((int) n);
        return (int) n;
    }

    /** One more message came alone: after {@link #BURST} in a row, the link fetches batches. */
    private void countSingle() {
        if (++singles == BURST) {
            singles = 0;
            bursting = true;
        }
    }

    /** How many batches this link has asked the kernel for (each one {@code recvmmsg}); 0 with a batch of 1. */
    long batchesFetched() {
        return batch == null ? 0 : batch.fetches();
    }

    @Override
    public boolean lastWaiting() {
        return fromBatch && batch.lastOfEmptied();
    }

    /** The batch's next datagram, truncated to {@code buffer} as {@code recvfrom} would: copied there, or left in the batch for {@link #receiveInPlace}. */
    private int receiveFromBatch(ByteBuffer buffer) {
        fromBatch = true;
        int n = (int) Math.min(batch.next(), receiveSegment.byteSize());
        if (batch.inJoinedRun()) {
            // A run the kernel joined is a burst: the receive after the batch asks for another.
            singles = 0;
            bursting = true;
        }
        if (leaveInBatch) {
            held = batch.data();
            heldOffset = batch.offset();
        } else {
            MemorySegment.copy(batch.data(), batch.offset(), receiveSegment, 0, n);
        }
        source = sourceOf(batch.sender());
        if (source == null) {
            return -1;
        }
        buffer.position(n);
        return n;
    }

    /** The sender in {@code sa}, from the table of those seen; a new one is added (the only allocation). */
    private InetSocketAddress sourceOf(MemorySegment sa) {
        int family = sa.get(ValueLayout.JAVA_SHORT, 0);
        int port = sa.get(ValueLayout.JAVA_SHORT_UNALIGNED, 2) & 0xFFFF;
        long high;
        long low;
        if (family == LibC.AF_INET) {
            high = 0;
            low = sa.get(ValueLayout.JAVA_INT_UNALIGNED, 4) & 0xFFFF_FFFFL;
        } else if (family == LibC.AF_INET6) {
            high = sa.get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
            low = sa.get(ValueLayout.JAVA_LONG_UNALIGNED, 16);
        } else {
            return null;
        }
        int home = (int) (((high ^ port) * 0x9E3779B97F4A7C15L ^ low * 0xC2B2AE3D27D4EB4FL) >>> 56) & (SOURCES - 1);
        int slot = home;
        for (int probe = 0; probe < SOURCES; probe++, slot = (slot + 1) & (SOURCES - 1)) {
            InetSocketAddress known = sources[slot];
            if (known == null) {
                break;
            }
            if (sourcePorts[slot] == port && sourceLow[slot] == low && sourceHigh[slot] == high && sourceFamilies[slot] == family) {
                sourceSlot = slot;
                return known;
            }
        }
        if (sources[slot] != null) {
            // Every slot is taken: this sender replaces the one in its home slot.
            slot = home;
        }
        InetSocketAddress made = LibC.decode(sa);
        sources[slot] = made;
        sourceFamilies[slot] = (short) family;
        sourcePorts[slot] = port;
        sourceHigh[slot] = high;
        sourceLow[slot] = low;
        sourceSlot = slot;
        return made;
    }

    @Override
    public int sourceSlot() {
        return sourceSlot;
    }

    @Override
    public InetSocketAddress source() {
        return source;
    }

    @Override
    public void await(long timeoutNs) {
        if (closed || batch != null && batch.pending()) {
            return;
        }
        int ms = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutNs / 1_000_000));
        if (LibC.poll(pollFds, 2, ms) > 0 && (pollFds.get(ValueLayout.JAVA_SHORT, 14) & LibC.POLLIN) != 0) {
            LibC.read(wakeFd, eventValue, 8);
        }
    }

    /** Synchronized with {@link #close}: the eventfd is never written after it is closed (its number may be reused). */
    @Override
    public synchronized void wakeup() {
        if (!closed) {
            LibC.write(wakeFd, one, 8);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        holding = false;
        LibC.close(fd);
        LibC.close(wakeFd);
        for (int s : senders) {
            LibC.close(s);
        }
        arena.close();
    }
}
