package dev.verbs4j.softroce.engine;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.Errno;
import dev.verbs4j.Gid;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.softroce.memory.MemoryTable;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.monitor.DeviceMBeans;
import dev.verbs4j.softroce.monitor.SoftEvents;
import dev.verbs4j.softroce.transport.PcapWriter;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.IpUdpHeaders;
import dev.verbs4j.softroce.wire.OpcodeTable;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.PacketView;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The engine of one soft device: its link, memory table and queue pairs, driven by
 * {@link #doWork(long)} with the time passed in. One thread drives it (a
 * {@link DeviceAgent}, or a test); control calls take the same lock, so engine state
 * has a single writer at a time. Received packets are validated and counted here and
 * handed to the addressed queue pair's {@link Responder} or {@link Completer}.
 */
public final class DeviceEngine implements AutoCloseable {
    /** Queue pair numbers start here, as in the kernel rxe; 0 and 1 are the special QPs. */
    static final int FIRST_QPN = 0x11;
    /** The general services QP, which carries management datagrams such as the connection manager's. */
    public static final int GSI_QPN = 1;
    /** The Q_Key of QP1 (IBTA 10.2.4.2). */
    public static final int GSI_QKEY = 0x8001_0000;
    /** A management datagram's length: its 24-byte common header and 232 bytes of class data. */
    public static final int MAD_SIZE = 256;
    private static final int RECEIVE_BUDGET = 256;
    private static final int BUFFER_SIZE = 1 << 16;

    private final ReentrantLock lock = new ReentrantLock();
    private final Link link;
    private final DeviceLimits limits;
    private final MemoryTable memory;
    private final Counters counters = new Counters();
    private final InetSocketAddress local;
    private final InetAddress localAddress;
    private final int peerPort;
    private final Mtu portMtu;
    private final Consumer<AsyncEvent> asyncEvents;
    private final Arena arena = Arena.ofShared();

    private QpEngine[] qps = new QpEngine[256];
    private final List<QpEngine> active = new ArrayList<>();
    private int nextQpn = FIRST_QPN;

    // From the engine's arena, so that closing the device frees them, not a later collection.
    private final MemorySegment rxSegment = arena.allocate(BUFFER_SIZE, 8);
    private final ByteBuffer rxBuffer = rxSegment.asByteBuffer();
    private final MemorySegment txSegment = arena.allocate(BUFFER_SIZE, 8);
    private final ByteBuffer txBuffer = txSegment.asByteBuffer();
    /**
     * The largest packet a queue pair builds: a payload of the largest MTU (4096 bytes) behind
     * the longest transport headers (40 bytes), its pad and the ICRC, with room to spare.
     */
    private static final int LARGEST_PACKET = 4096 + 64;
    /** Where the packet being built is: the link's room for it ({@link Link#sendSlot}), or {@link #txSegment}. */
    private MemorySegment txPacket = txSegment;
    private final MemorySegment grh = arena.allocate(40 + IpUdpHeaders.UDP_HEADER_LENGTH);
    private final MemorySegment atomicResult = arena.allocate(8, 8);
    private final PacketView view = new PacketView();
    private final PacketBuilder builder = new PacketBuilder();
    private final Icrc icrc = new Icrc();
    /**
     * The flow of the packet being handled, and its sender. Flows are kept per sender, in the
     * slot the link numbers it with (else one its address object hashes to), and are known by
     * the identity of that object: a link that hands out one object per sender
     * ({@link dev.verbs4j.softroce.transport.NativeUdpLink}) then costs no allocation when
     * packets of many queue pairs (each from its own UDP source port) interleave.
     */
    private UdpFlow rxFlow = new UdpFlow();
    private InetSocketAddress rxFlowSource;
    private final InetSocketAddress[] rxFlowSources = new InetSocketAddress[Link.SOURCE_SLOTS];
    private final UdpFlow[] rxFlows = new UdpFlow[Link.SOURCE_SLOTS];
    private volatile PcapWriter capture;
    private GsiAgent gsi;
    private final UdpFlow gsiFlow = new UdpFlow();
    private int gsiPsn;
    private volatile Runnable wakeupHook;
    private volatile boolean rxeFlushIcrc = Boolean.getBoolean(RXE_FLUSH_ICRC_PROPERTY);
    private String name;
    private DeviceMBeans mbeans;
    /** The port of a device made on a network interface; null for a device on one address. */
    private PortWatch port;

    /**
     * System property: talk FLUSH with the kernel rxe, whose ICRC variant covers the headers
     * twice: send FLUSH with that variant, so the kernel accepts it, and accept received
     * FLUSH packets in either form. Without it only the IBTA ICRC passes: accepting the
     * variant too lets through 1 in 65,536 corrupted packets that read as a FLUSH
     * ({@link PacketView#acceptRxeFlushIcrc}).
     */
    public static final String RXE_FLUSH_ICRC_PROPERTY = "verbs4j.soft.rxeFlushIcrc";

    /**
     * @param peerPort    the UDP port peers listen on (4791 for RoCEv2)
     * @param asyncEvents receives asynchronous events (called from the engine thread)
     */
    public DeviceEngine(Link link, DeviceLimits limits, int peerPort, Consumer<AsyncEvent> asyncEvents) {
        this(link, limits, limits.maxMtu(), peerPort, asyncEvents);
    }

    /** @param portMtu the port's active MTU, which UD datagrams use */
    public DeviceEngine(Link link, DeviceLimits limits, Mtu portMtu, int peerPort, Consumer<AsyncEvent> asyncEvents) {
        this.portMtu = portMtu;
        this.link = link;
        this.limits = limits;
        this.memory = new MemoryTable(limits.maxMr() + limits.maxMw());
        this.local = link.localAddress();
        this.localAddress = local.getAddress();
        this.peerPort = peerPort;
        this.asyncEvents = asyncEvents;
        this.name = local.toString();
        this.inFlightLimit = inFlightLimit(link.receiveBufferBytes(), portMtu);
        link.segmentSends(new IcrcIdStamp());
        view.acceptRxeFlushIcrc(rxeFlushIcrc);
    }

    /**
     * The most packets the device's RC queue pairs may have unacknowledged together: three
     * quarters of what a receiving socket like this device's holds of packets of the port's
     * MTU, and never less than one queue pair's window. Each queue pair's window
     * ({@link Requester#MAX_UNACKED_PSNS}, the kernel rxe's) bounds one stream; many
     * streams at once would fill a peer's socket, which then drops the ends of their bursts,
     * and a lost end is found only by the ACK timeout (67 ms at timeout 14): with 16 queue
     * pairs at MTU 4096 on loopback, 2,048 packets against the 993 an 8 MiB buffer holds.
     * Unlimited when the link cannot tell its buffer.
     */
    static int inFlightLimit(int receiveBufferBytes, Mtu mtu) {
        if (receiveBufferBytes <= 0) {
            return Integer.MAX_VALUE;
        }
        return Math.max(Requester.MAX_UNACKED_PSNS, receiveBufferBytes / queuedPacketBytes(mtu.bytes()) / 4 * 3);
    }

    /**
     * What a Linux socket counts for one queued datagram of a full {@code mtu} packet: its
     * buffer (the payload, the transport, UDP and IP headers, the kernel's headroom and
     * shared info, some 512 bytes more in all, rounded up to a power of two) plus 256 bytes
     * of bookkeeping: 8,448 bytes for MTU 4096, as {@code ss -m} shows for its 4,136-byte
     * datagrams.
     */
    static int queuedPacketBytes(int mtu) {
        return Integer.highestOneBit(mtu + 512 - 1) * 2 + 256;
    }

    /** Packets the device's RC queue pairs have unacknowledged, as of the last step's count and what was sent since. */
    private int inFlight;
    private final int inFlightLimit;

    /** Packets the device's RC queue pairs have unacknowledged, as the last step counted them and with what was sent since. */
    public int packetsInFlight() {
        return inFlight;
    }

    /** The most packets the device's RC queue pairs may have unacknowledged together ({@link #inFlightLimit(int, Mtu)}). */
    public int inFlightLimit() {
        return inFlightLimit;
    }

    /** Whether the device's RC queue pairs together have as many packets unacknowledged as they may ({@link #inFlightLimit}). */
    boolean inFlightFull() {
        return inFlight >= inFlightLimit;
    }

    /** Whether one more packet fills the device's flight: that packet asks for an acknowledgement. */
    boolean inFlightFillsUp() {
        return inFlight + 1 >= inFlightLimit;
    }

    /** A requester sent {@code packets} new packets. */
    void addInFlight(int packets) {
        inFlight += packets;
    }

    /** Counts the packets the queue pairs have unacknowledged, after a step's receives took the acknowledgements in. */
    private void countInFlight() {
        int n = 0;
        for (int i = 0; i < active.size(); i++) {
            QpEngine qp = active.get(i);
            if (qp.type == QpType.RC && (qp.state == QpState.RTS || qp.state == QpState.SQD)) {
                n += qp.requester.unacknowledged();
            }
        }
        inFlight = n;
    }

    /**
     * Names the engine after its device, for its JFR events, and shows its counters and its
     * queue pairs' as MBeans ({@link DeviceMBeans}) until it closes.
     */
    public void monitor(String deviceName) {
        lock.lock();
        try {
            this.name = deviceName;
            if (mbeans == null) {
                String[] names = new String[Counters.count()];
                for (int i = 0; i < names.length; i++) {
                    names[i] = Counters.name(i);
                }
                mbeans = new DeviceMBeans(deviceName, names, counters::get, memory::odpFaults);
                for (QpEngine qp : active) {
                    mbeans.addQueuePair(qp.qpn, qp.counters::get);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** The device's name (its address until {@link #monitor} names it). */
    public String name() {
        return name;
    }

    /** The port's active MTU. */
    public Mtu portMtu() {
        return portMtu;
    }

    public MemoryTable memory() {
        return memory;
    }

    public DeviceLimits limits() {
        return limits;
    }

    public Counters counters() {
        return counters;
    }

    /** The lock control calls hold while they change engine state. */
    public ReentrantLock lock() {
        return lock;
    }

    /** The device's own address. */
    public InetSocketAddress localAddress() {
        return local;
    }

    /** Starts or stops writing every packet sent and received to a pcap file. */
    public void capture(PcapWriter writer) {
        this.capture = writer;
    }

    /** Called when work is posted, to wake an idle engine thread. */
    public void onWakeup(Runnable hook) {
        this.wakeupHook = hook;
    }

    void wakeup() {
        Runnable hook = wakeupHook;
        if (hook != null) {
            hook.run();
        }
    }

    // ---- queue pairs (control path, under the lock) -------------------------------------------

    /** Creates a queue pair. @throws VerbsException {@code ENOMEM} when the device has no room */
    public QpEngine createQp(QpType type, int pdHandle, CompletionRing sendCq, CompletionRing recvCq, RecvQueue srq,
                             int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInline,
                             boolean signalAll, Set<WrOpcode> operations) {
        lock.lock();
        try {
            if (active.size() >= limits.maxQp()) {
                throw new VerbsException(Errno.ENOMEM, "device has " + limits.maxQp() + " queue pairs already");
            }
            int qpn = allocateQpn();
            QpEngine qp = new QpEngine(this, qpn, type, pdHandle, sendCq, recvCq, srq, maxSendWr, maxRecvWr, maxSendSge,
                    maxRecvSge, maxInline, signalAll, operations, arena);
            qps[qpn] = qp;
            active.add(qp);
            if (mbeans != null) {
                mbeans.addQueuePair(qpn, qp.counters::get);
            }
            return qp;
        } finally {
            lock.unlock();
        }
    }

    private int allocateQpn() {
        for (int tries = 0; tries < (1 << 24); tries++) {
            if (nextQpn >= qps.length) {
                if (qps.length < (1 << 24) && active.size() * 2 >= qps.length - FIRST_QPN) {
                    qps = java.util.Arrays.copyOf(qps, Math.min(qps.length * 2, 1 << 24));
                } else {
                    nextQpn = FIRST_QPN;
                }
            }
            int qpn = nextQpn++;
            if (qps[qpn] == null) {
                return qpn;
            }
        }
        throw new VerbsException(Errno.ENOMEM, "no free QP number");
    }

    /** Destroys a queue pair: outstanding requests are dropped without completions. */
    public void destroyQp(QpEngine qp) {
        lock.lock();
        try {
            qp.responder.sendHeldAck();
            qps[qp.qpn] = null;
            active.remove(qp);
            qp.state = QpState.RESET;
            if (mbeans != null) {
                mbeans.removeQueuePair(qp.qpn);
            }
        } finally {
            lock.unlock();
        }
    }

    public void modifyQp(QpEngine qp, QpAttributes attributes) {
        lock.lock();
        try {
            qp.modify(attributes, limits);
        } finally {
            lock.unlock();
        }
        wakeup();
    }

    public QpAttributes queryQp(QpEngine qp, QpAttributes out) {
        lock.lock();
        try {
            return qp.query(out);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The UDP address of the device that owns {@code gid}. A link-local GID names no
     * interface, so it is reached through this device's own: the scope of its address.
     */
    InetSocketAddress peerAddress(Gid gid) {
        InetAddress to = gid.toInetAddress();
        int scope = port != null ? port.linkScope()
                : localAddress instanceof java.net.Inet6Address own ? own.getScopeId() : 0;
        if (to instanceof java.net.Inet6Address six && six.isLinkLocalAddress() && scope != 0) {
            try {
                to = java.net.Inet6Address.getByAddress(null, six.getAddress(), scope);
            } catch (java.net.UnknownHostException e) {
                throw new AssertionError(e);
            }
        }
        return new InetSocketAddress(to, peerPort);
    }

    /**
     * The sender ({@link Link#sourcePort(InetAddress, int)}) of the packets from source GID
     * {@code sgidIndex} to {@code peer} that want UDP port {@code wanted}.
     */
    int sourcePort(int sgidIndex, InetSocketAddress peer, int wanted) {
        return link.sourcePort(sourceAddress(sgidIndex, peer), wanted);
    }

    /**
     * The address packets from source GID {@code sgidIndex} to {@code peer} leave from: the
     * one the GID names on a device made on an interface, else the device's own address.
     */
    InetAddress sourceAddress(int sgidIndex, InetSocketAddress peer) {
        if (port == null) {
            return localAddress;
        }
        InetAddress a = port.gidAddress(sgidIndex);
        return a != null ? a : link.sourceFor(peer);
    }

    /**
     * Watches the port of a device made on a network interface: the engine's steps let it
     * look at the interface ({@link PortWatch#poll}), and the queue pairs send from the
     * address their source GID index names.
     */
    public void watch(PortWatch watch) {
        lock.lock();
        try {
            this.port = watch;
        } finally {
            lock.unlock();
        }
    }

    /** Sets {@code flow} to go from this device's own port to {@code peer}. */
    void flowTo(InetSocketAddress peer, UdpFlow flow) {
        flowTo(peer, link.sourceFor(peer), local.getPort(), flow);
    }

    /**
     * Sets {@code flow} to go from {@code source}, UDP port {@code sourcePort} (a sender of
     * {@link Link#sourcePort(InetAddress, int)}: its low 16 bits), to {@code peer}.
     */
    void flowTo(InetSocketAddress peer, InetAddress source, int sourcePort, UdpFlow flow) {
        InetAddress destination = peer.getAddress();
        if ((source.getAddress().length == 4) != (destination.getAddress().length == 4)) {
            throw new VerbsException(Errno.EINVAL, "cannot reach " + destination + " from " + source + " (IP version differs)");
        }
        flow.set(source, sourcePort & 0xFFFF, destination, peer.getPort());
    }

    /** A flow from this device to {@code peer}, for address handles. */
    public UdpFlow flowTo(InetSocketAddress peer) {
        UdpFlow flow = new UdpFlow();
        flowTo(peer, flow);
        return flow;
    }

    public InetSocketAddress peerAddressOf(Gid gid) {
        return peerAddress(gid);
    }

    // ---- events ------------------------------------------------------------------------------

    void asyncEvent(AsyncEventType type, long element) {
        if (asyncEvents != null) {
            asyncEvents.accept(new AsyncEvent(type, element));
        }
    }

    /** A completion queue overflowed: it is in error, and so is every queue pair using it (IBTA 11.4.2.1). */
    void cqOverflow(CompletionRing ring) {
        asyncEvent(AsyncEventType.CQ_ERR, System.identityHashCode(ring));
        for (QpEngine qp : active) {
            if (qp.sendCq == ring || qp.recvCq == ring) {
                qp.enterError(AsyncEventType.QP_FATAL);
            }
        }
    }

    /** Counts an unexpected engine exception, reports the first one, and raises DEVICE_FATAL once. */
    void engineFault(Throwable t) {
        counters.increment(Counters.ENGINE_FAULTS);
        SoftEvents.engineFault(name, t);
        if (counters.get(Counters.ENGINE_FAULTS) == 1) {
            System.err.println("verbs4j soft device " + local + ": engine fault");
            t.printStackTrace();
            asyncEvent(AsyncEventType.DEVICE_FATAL, 0);
        }
    }

    void srqLimitReached(RecvQueue srq) {
        asyncEvent(AsyncEventType.SRQ_LIMIT_REACHED, System.identityHashCode(srq));
    }

    // ---- data path ---------------------------------------------------------------------------

    /**
     * One step: receive what is waiting (up to a budget), then let every queue pair send,
     * time out and complete.
     *
     * @return the amount of work done; 0 means the engine may idle
     */
    public int doWork(long nowNs) {
        lock.lock();
        // What the step sends leaves together at its end, in as few system calls as the
        // link can ({@link Link#holdSends}): on loopback a sendmmsg of a step's packets costs
        // far less than a sendto each (docs/performance.md, "Sends of a step").
        link.holdSends();
        try {
            steps++;
            lastStepNs = nowNs;
            int due = heldAckCount;
            int received = receive(nowNs);
            int work = received;
            if (port != null) {
                work += port.poll(nowNs);
            }
            if (gsi != null) {
                work += gsi.doWork(nowNs);
            }
            countInFlight();
            for (int i = 0; i < active.size(); i++) {
                work += active.get(i).doWork(nowNs);
            }
            // Acknowledgements held back in an earlier step go now; those of this step wait
            // for the next, which comes at once: a step that holds one back counts as work.
            // An engine that does not hold them across steps sends them all at the end of this one.
            // A step that took one packet at a ping-pong's pace (tookOneAtPace) keeps
            // those held since the step before for one more step: that packet may be what the
            // application awaited before it answers, and the post of the answer sends them
            // with it, in one system call (posted).
            int sendNow = !holdAcks ? heldAckCount : tookOneAtPace ? overdueAcks : due;
            work += sendHeldAcks(sendNow);
            overdueAcks = holdAcks ? due - sendNow : 0;
            if (work == 0) {
                memory.sweepOne();
            }
            return work;
        } finally {
            try {
                flushSends();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Holds {@code qp}'s positive acknowledgement back until the next step (its responder
     * keeps what it acknowledges). A responder that acknowledged at once would send the
     * acknowledgement in front of the application's answer to the request (the reply of a
     * ping-pong, say), and on the answer's critical path; held back one step, it leaves after
     * the answer, or at the start of the next poll. An engine without a thread of its own
     * holds it only to the end of this step ({@link #holdAcks}). Call with the lock held.
     */
    void deferAck(QpEngine qp) {
        if (heldAckCount == heldAcks.length) {
            heldAcks = java.util.Arrays.copyOf(heldAcks, heldAcks.length * 2);
        }
        if (heldAckCount++ == 0 && swept) {
            HeldAckSweep.holding();
        }
        heldAcks[heldAckCount - 1] = qp;
    }

    /** Sends the first {@code due} held acknowledgements; returns {@code due}, plus 1 if any are still held. */
    private int sendHeldAcks(int due) {
        overdueAcks = Math.max(0, overdueAcks - due);
        if (heldAckCount == 0) {
            return 0;
        }
        for (int i = 0; i < due; i++) {
            heldAcks[i].responder.sendHeldAck();
        }
        int left = heldAckCount - due;
        System.arraycopy(heldAcks, due, heldAcks, 0, left);
        java.util.Arrays.fill(heldAcks, left, heldAckCount, null);
        heldAckCount = left;
        if (left == 0 && due > 0 && swept) {
            HeldAckSweep.released();
        }
        return due + (left > 0 ? 1 : 0);
    }

    /**
     * Sends every held acknowledgement unless another thread is inside the engine
     * ({@link HeldAckSweep}); returns how many it sent.
     */
    int trySendHeldAcks() {
        if (lock.tryLock()) {
            try {
                return sendHeldAcks(heldAckCount);
            } catch (RuntimeException | AssertionError e) {
                engineFault(e);
            } finally {
                lock.unlock();
            }
        }
        return 0;
    }

    /**
     * Sends the held acknowledgements when no step has come since the previous call found
     * them held: the guarantee of a next step for an engine that holds them without a thread
     * of its own (caller progress, whose polls may stop after the last completion). Called
     * periodically, it sends an acknowledgement at most two periods after the step that drew
     * it; a first call that finds some held only notes the step. Does nothing while another
     * thread is inside the engine (that thread steps it). Returns how many it sent.
     */
    public int sendHeldAcksNotStepped() {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            if (heldAckCount == 0) {
                heldSeenAtStep = -1;
                return 0;
            }
            if (heldSeenAtStep != steps) {
                heldSeenAtStep = steps;
                return 0;
            }
            heldSeenAtStep = -1;
            return sendHeldAcks(heldAckCount);
        } catch (RuntimeException | AssertionError e) {
            engineFault(e);
            return 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The clock of the last step ({@link #doWork}): the time a post to an engine driven by
     * hand runs at, since its driver's clock is the only one it may see. Read by the thread
     * that drives it.
     */
    public long lastStepNs() {
        return lastStepNs;
    }

    private long lastStepNs;

    /** Steps taken ({@link #doWork}); how {@link #sendHeldAcksNotStepped} knows that none came. */
    private long steps;
    /** The step at which {@link #sendHeldAcksNotStepped} last found acknowledgements held; -1 when it found none. */
    private long heldSeenAtStep = -1;

    /**
     * Lets polls of the other engines with a thread send this one's held acknowledgements,
     * as its {@link DeviceAgent} does when it starts; undone by {@link #leaveSweep} and
     * {@link #close}. Public for tests that drive engines by hand, as {@link #holdAcks}.
     */
    public void joinSweep() {
        lock.lock();
        try {
            swept = true;
            holdAcks = true;
            HeldAckSweep.add(this);
            if (heldAckCount > 0) {
                HeldAckSweep.holding();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Undoes {@link #joinSweep}. */
    public void leaveSweep() {
        lock.lock();
        try {
            leaveSweepLocked();
        } finally {
            lock.unlock();
        }
    }

    private void leaveSweepLocked() {
        if (swept) {
            swept = false;
            HeldAckSweep.remove(this);
            if (heldAckCount > 0) {
                HeldAckSweep.released();
            }
        }
    }

    /** Whether this engine is in the {@link HeldAckSweep}. */
    private boolean swept;
    /** Whether acknowledgements are held across steps, not only to the end of the step that drew them. */
    private boolean holdAcks;

    /**
     * Holds positive acknowledgements back to the next step ({@link #deferAck}), as an engine
     * with a thread of its own does (its {@link DeviceAgent} turns this on: that thread
     * guarantees a next step), and one driven by the application's polls whose next step
     * {@link #sendHeldAcksNotStepped} guarantees. Otherwise they are held only to the end of
     * the step that drew them, which still lets those of one step coalesce. Also for tests
     * that drive an engine by hand on a clock of their own.
     */
    public void holdAcks(boolean hold) {
        lock.lock();
        try {
            holdAcks = hold;
        } finally {
            lock.unlock();
        }
    }

    /** Whether positive acknowledgements are held back to the next step ({@link #holdAcks}). */
    public boolean holdsAcks() {
        lock.lock();
        try {
            return holdAcks;
        } finally {
            lock.unlock();
        }
    }

    /** Queue pairs whose responder holds an acknowledgement back ({@link #deferAck}), in the order they did. */
    private QpEngine[] heldAcks = new QpEngine[16];
    private int heldAckCount;
    /** How many of the first {@link #heldAcks} were due at a step that kept them for one more: the next step sends them. */
    private int overdueAcks;

    /**
     * An application thread that polls an empty completion queue lends a hand: one step
     * ({@link #tryDoWork}), and the time it did, which tells the engine thread that it may
     * step back ({@link DeviceAgent}). Only a step that found nothing to do then sends the
     * acknowledgements other devices this thread polled before hold back
     * ({@link HeldAckSweep}), and steps again when it sent any, to take what they drew (the
     * acknowledgement a send of one thread playing both ends awaits): a step that found work
     * may have brought the application its message, and the application answers that
     * before the acknowledgements' system calls. Costs no allocation.
     */
    public int help(long nowNs) {
        Thread current = Thread.currentThread();
        polledBy(current, nowNs);
        int work = step(nowNs);
        if (work == 0 && HeldAckSweep.sweep(this, current, nowNs) > 0) {
            // What the sweep sent may have drawn an answer here (the ACK a send awaits).
            work = step(nowNs);
        }
        return work;
    }

    /**
     * Whether the held acknowledgements of this engine are {@code thread}'s to send from a
     * poll of another device: that thread was the last to help this one (it has moved on),
     * or nobody has helped for a while (the engine thread's tick would send them too).
     */
    boolean heldAcksLeftTo(Thread thread, long nowNs) {
        return helper == thread || !helpedRecently(nowNs);
    }

    /** Whether {@code thread} {@linkplain #help helps} this engine now: it did last, less than {@link #HELP_WINDOW_NS} ago. */
    boolean helpedBy(Thread thread, long nowNs) {
        return helper == thread && helpedRecently(nowNs);
    }

    /** Whether a thread {@linkplain #polledBy polled} or {@linkplain #help helped} this engine less than {@link #HELP_WINDOW_NS} before {@code nowNs}. */
    boolean helpedRecently(long nowNs) {
        long helped = helpedAtNs();
        return helped != 0 && nowNs - helped < HELP_WINDOW_NS;
    }

    /** The thread that last {@linkplain #help helped}: written by it, read by the others' sweeps. */
    private volatile Thread helper;

    /**
     * {@link #tryDoWork} for the threads that drive the engine (its own, or a poll lending a
     * hand): a fault is the device's (counted, DEVICE_FATAL), not the driving thread's, and
     * counts as work done.
     */
    int step(long nowNs) {
        try {
            return tryDoWork(nowNs);
        } catch (RuntimeException | AssertionError e) {
            engineFault(e);
            return 1;
        }
    }

    /**
     * Work was posted from an application thread. While a polling thread does the engine's
     * work ({@link #help}), the engine thread only ticks, so the request would wait for that
     * thread's next poll of this device, which may never come if it now waits on another
     * device's queue (a ping-pong between two devices on one thread), or for the tick. The
     * posting thread then sends {@code qp}'s new requests itself, and after them the
     * acknowledgements held back ({@link #deferAck}), all in one hold of the link
     * ({@link Link#holdSends}, one {@code sendmmsg}): its packets leave at once, in front of
     * the acknowledgements, which reach the peer right behind them. A thread that also helps
     * another device now (one thread playing both ends) leaves the acknowledgements to a later
     * poll ({@link #help}): its next look is at the other device, for the answer to what it
     * just sent, and their system calls would come first. It leaves receiving to the next
     * poll, and does nothing when another thread is inside the engine, which then takes the
     * work. Without a helper, the engine thread is awake or woken and takes the work as before.
     * An engine driven by polls ({@link #pollDriven}) has the posting thread send always: it
     * waits for a thread inside the engine to leave, since that may be the watch of caller
     * progress, which sends held acknowledgements and no request, or a poll of another device
     * whose step has sent already; either is one short step.
     */
    public void posted(QpEngine qp, long nowNs) {
        if (pollDriven) {
            lock.lock();
        } else if (!helpedRecently(nowNs) || !lock.tryLock()) {
            return;
        }
        link.holdSends();
        try {
            qp.transmit(nowNs);
            if (heldAckCount > 0 && !HeldAckSweep.helpsAnother(this, Thread.currentThread(), nowNs)) {
                sendHeldAcks(heldAckCount);
            }
        } catch (RuntimeException | AssertionError e) {
            engineFault(e);
        } finally {
            try {
                flushSends();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Hands the link what it kept since {@link Link#holdSends}. A datagram it then refuses
     * counts as dropped instead of sent (its bytes and its queue pair's count stay counted).
     */
    private void flushSends() {
        int refused = link.flushSends();
        if (refused > 0) {
            counters.add(Counters.PACKETS_OUT, -refused);
            counters.add(Counters.DROP_SEND_FAILED, refused);
        }
        long runs = link.segmentedRuns();
        if (runs != segmentedRunsCounted) {
            counters.add(Counters.SEGMENTED_RUNS, runs - segmentedRunsCounted);
            segmentedRunsCounted = runs;
        }
    }

    /** The link's {@link Link#segmentedRuns} already in the counters. */
    private long segmentedRunsCounted;

    /** How long after an application thread's last {@linkplain #help help} the engine thread keeps stepping back. */
    public static final long HELP_WINDOW_NS = 100_000L;

    /**
     * Draws the variant bits of the memory keys registered from now on from {@code seed}
     * ({@link MemoryTable#seedKeys}): for engines driven by hand on a clock of their own,
     * whose runs replay from a seed.
     */
    public void seedKeys(long seed) {
        lock.lock();
        try {
            memory.seedKeys(seed);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes this engine one driven only by the application's polls (caller progress): every
     * post sends its queue pair's new requests at once ({@link #posted}); otherwise a request
     * would wait for the poll after its post, which first receives what is in the socket.
     */
    public void pollDriven(boolean on) {
        pollDriven = on;
    }

    private volatile boolean pollDriven;

    /**
     * {@code thread} polls a completion queue of this engine (and {@linkplain #help helps} its
     * thread, if it has one): it is this engine's poller for the next {@link #HELP_WINDOW_NS},
     * and with caller progress the polls of other threads leave the engine to it
     * ({@link #polledByAnother}).
     */
    public void polledBy(Thread thread, long nowNs) {
        HELPED_AT.setOpaque(this, nowNs);
        if (helper != thread) {
            helper = thread;
        }
    }

    /** Whether a thread other than {@code thread} {@linkplain #polledBy polled} this engine less than {@link #HELP_WINDOW_NS} ago. */
    public boolean polledByAnother(Thread thread, long nowNs) {
        return helper != thread && helpedRecently(nowNs);
    }

    /** When an application thread last {@linkplain #help helped}; 0 when none does now. */
    public long helpedAtNs() {
        return (long) HELPED_AT.getOpaque(this);
    }

    /**
     * No application thread helps from now on (it is about to block, on a completion channel
     * for example): the engine thread takes over at once.
     */
    public void stopHelping() {
        HELPED_AT.setOpaque(this, 0L);
        wakeup();
    }

    @SuppressWarnings("unused") // through HELPED_AT
    private long helpedAtNs;
    private static final java.lang.invoke.VarHandle HELPED_AT;

    static {
        try {
            HELPED_AT = java.lang.invoke.MethodHandles.lookup().findVarHandle(DeviceEngine.class, "helpedAtNs", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@link #doWork} unless another thread is inside it; returns 0 then. */
    public int tryDoWork(long nowNs) {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            return doWork(nowNs);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Steps that may still stop receiving after their first packet: {@link #PACED_STEPS} once a
     * step found at most one packet before the socket was empty (a ping-pong's pace, not a
     * stream's), one fewer after each step that stopped, none after a step that took two or
     * more. A step that may stops after a first packet the application awaits: a whole SEND,
     * WRITE or ATOMIC WRITE (one packet long), or a response that completed a signaled work
     * request of a queue pair with nothing more to send (one that is still sending, or sending
     * again after a timeout, would send on in that step, and may send what the responses left in the
     * socket acknowledge). The poll (or the engine thread's loop) that ran it then returns what that packet
     * brought before the step takes the next one, which is often not there yet: receiving on
     * would cost an empty receive on the way back to the application. In a SEND ping-pong the
     * peer's reply is followed by its acknowledgement of the request, and the application
     * awaits both: the first step stops after the reply, the second after the
     * acknowledgement. What is left in the socket is the next steps', and after at most
     * {@link #PACED_STEPS} early stops a step drains it. A response that completes nothing
     * (an acknowledgement of unsignaled requests, a READ response's middle) never stops a
     * step: a requester that took one acknowledgement per step would post less.
     */
    private int pacedSteps;
    private static final int PACED_STEPS = 2;
    /** Whether the last step took one packet at a ping-pong's pace: it stopped after it, or found the socket empty behind it. */
    private boolean tookOneAtPace;
    /** Signaled requests answered while their queue pair had nothing more to send ({@link Completer}): how a step sees that a response completed one the application awaits. */
    int awaitedAnswers;

    private int receive(long nowNs) {
        int n = 0;
        boolean mayStop = pacedSteps > 0;
        tookOneAtPace = false;
        while (n < RECEIVE_BUDGET) {
            // A link that saw the socket emptied behind the last datagram spares the empty receive.
            int length = n > 0 && link.lastWaiting() ? -1 : link.receiveInPlace(rxBuffer);
            if (length < 0) {
                pacedSteps = n <= 1 ? PACED_STEPS : 0;
                tookOneAtPace = n == 1;
                return n;
            }
            n++;
            counters.increment(Counters.PACKETS_IN);
            counters.add(Counters.BYTES_IN, length);
            InetSocketAddress source = link.source();
            if (source != rxFlowSource) {
                if (!setReceiveFlow(source)) {
                    counters.increment(Counters.DROP_ADDRESS);
                    continue;
                }
            }
            int answered = awaitedAnswers;
            boolean awaited = dispatch(length, source, nowNs) || awaitedAnswers != answered;
            if (awaited && mayStop && n == 1) {
                pacedSteps--;
                tookOneAtPace = true;
                return n;
            }
        }
        pacedSteps = 0;
        return n;
    }

    private boolean setReceiveFlow(InetSocketAddress source) {
        int slot = link.sourceSlot();
        if (slot < 0) {
            slot = System.identityHashCode(source) & (Link.SOURCE_SLOTS - 1);
        }
        if (rxFlowSources[slot] != source) {
            InetAddress from = source.getAddress();
            InetAddress to = link.receivedAt();
            if ((from instanceof Inet4Address) != (to instanceof Inet4Address)) {
                return false;
            }
            UdpFlow flow = rxFlows[slot];
            if (flow == null) {
                flow = rxFlows[slot] = new UdpFlow();
            }
            flow.set(from, source.getPort(), to, local.getPort());
            rxFlowSources[slot] = source;
        }
        rxFlow = rxFlows[slot];
        rxFlowSource = source;
        return true;
    }

    /** Requests whose data the application sees; the engine itself answers a READ, an atomic or a FLUSH. */
    private static final int TO_APPLICATION = OpcodeTable.SEND | OpcodeTable.WRITE | OpcodeTable.ATOMIC_WRITE;

    /** Hands a received packet to its queue pair; returns whether it ended a request whose data the application sees. */
    private boolean dispatch(int length, InetSocketAddress source, long nowNs) {
        // The link may have left the datagram in its own batch: it is read there, not copied.
        MemorySegment held = link.heldSegment();
        MemorySegment packet = held != null ? held : rxSegment;
        long at = held != null ? link.heldOffset() : 0;
        if (!view.wrap(packet, at, length)) {
            record(packet, at, length, rxFlow, 0);
            counters.increment(Counters.DROP_MALFORMED);
            return false;
        }
        if (!view.checkIcrc(icrc, rxFlow)) {
            record(packet, at, length, rxFlow, 0);
            counters.increment(Counters.DROP_ICRC);
            return false;
        }
        // The capture shows the IPv4 Identification the sender used, so the ICRC verifies there too.
        record(packet, at, length, rxFlow, view.ipv4Id());
        if (view.ipv4Id() != 0) {
            counters.increment(Counters.ICRC_IPV4_ID_RECOVERED);
        }
        if (view.rxeFlushIcrc()) {
            counters.increment(Counters.ICRC_RXE_FLUSH_VARIANT);
        }
        int pkey = view.bth().pkey();
        if ((pkey & 0x7fff) != 0x7fff) {
            counters.increment(Counters.DROP_PKEY);
            return false;
        }
        int qpn = view.bth().destQp();
        if (qpn == GSI_QPN) {
            receiveMad(source, nowNs);
            return false;
        }
        QpEngine qp = qpn < qps.length ? qps[qpn] : null;
        if (qp == null) {
            counters.increment(Counters.DROP_UNKNOWN_QP);
            return false;
        }
        if (qp.type != QpType.UD && (qp.peer == null || !qp.peer.getAddress().equals(source.getAddress()))) {
            // rxe check_addr: a connected QP takes packets only from its peer.
            counters.increment(Counters.DROP_ADDRESS);
            return false;
        }
        qp.counters.increment(Counters.PACKETS_IN);
        if (qp.type == QpType.UD) {
            buildReceivedNetworkHeader(view.length());
        }
        if (view.has(OpcodeTable.REQUEST)) {
            boolean endsRequest = view.has(OpcodeTable.LAST) && OpcodeTable.hasAny(view.opcode(), TO_APPLICATION);
            qp.responder.onRequest(view, nowNs);
            return endsRequest;
        }
        qp.completer.onResponse(view, nowNs);
        return false;
    }

    /**
     * A datagram to QP1: it must be a UD SEND carrying one MAD with QP1's Q_Key (as the
     * kernel rxe checks for its GSI QP); anything else, or a MAD with no agent to take it,
     * is a counted drop.
     */
    private void receiveMad(InetSocketAddress source, long nowNs) {
        if (gsi == null || view.opcode() != Opcodes.UD_SEND_ONLY || view.deth().qkey() != GSI_QKEY
                || view.payloadLength() < MAD_SIZE) {
            counters.increment(Counters.DROP_MAD);
            return;
        }
        counters.increment(Counters.MADS_IN);
        try {
            gsi.onMad(view.segment().asSlice(view.payloadOffset(), MAD_SIZE), source.getAddress(), nowNs);
        } catch (RuntimeException e) {
            // A MAD the agent could not take is the peer's problem, not the device's: dropped.
            counters.increment(Counters.DROP_MAD);
        }
    }

    /** The agent that takes MADs to QP1, or {@code null}. */
    public GsiAgent gsiAgent() {
        return gsi;
    }

    /** Sets the agent that takes MADs to QP1 and whose timers run in {@link #doWork}. */
    public void gsiAgent(GsiAgent agent) {
        lock.lock();
        try {
            this.gsi = agent;
        } finally {
            lock.unlock();
        }
        wakeup();
    }

    /**
     * Sends one MAD from QP1 to QP1 of the device at {@code destination} (a UD SEND with
     * QP1's Q_Key). Call with the lock held.
     *
     * @return whether the link took it
     */
    public boolean sendMad(InetAddress destination, MemorySegment mad) {
        PacketBuilder b = startPacket(Opcodes.UD_SEND_ONLY);
        b.bth().init(Opcodes.UD_SEND_ONLY, false, false, 0, 0xFFFF, GSI_QPN, false, gsiPsn);
        gsiPsn = (gsiPsn + 1) & 0xFF_FFFF;
        b.deth().init(GSI_QKEY, GSI_QPN);
        MemorySegment.copy(mad, 0, txPacket, b.payloadOffset(), MAD_SIZE);
        InetSocketAddress peer = new InetSocketAddress(destination, peerPort);
        flowTo(peer, gsiFlow);
        int length = builder.finish(MAD_SIZE, icrc, gsiFlow, 0);
        record(txPacket, 0, length, gsiFlow, 0);
        if (sendPacket(length, peer, local.getPort())) {
            counters.increment(Counters.PACKETS_OUT);
            counters.increment(Counters.MADS_OUT);
            return true;
        }
        counters.increment(Counters.DROP_SEND_FAILED);
        return false;
    }

    /** The 40-byte GRH area a UD receive gets: zeros and the IPv4 header, or the IPv6 header. */
    MemorySegment receivedNetworkHeader() {
        return grh;
    }

    private void buildReceivedNetworkHeader(int udpPayloadLength) {
        grh.fill((byte) 0);
        if (rxFlow.isIpv6()) {
            IpUdpHeaders.write(grh, 0, rxFlow, udpPayloadLength, 0, 0, 64);
        } else {
            IpUdpHeaders.write(grh, 20, rxFlow, udpPayloadLength, 0, 0, 64);
        }
    }

    /** Where the completer puts an atomic's original value before it scatters it to the request's entries. */
    MemorySegment atomicResult() {
        return atomicResult;
    }

    /** Where the packet {@link #startPacket} started is built. */
    MemorySegment txPacket() {
        return txPacket;
    }

    /**
     * Starts a packet: in the link's room for the next datagram it keeps, where it has one
     * (sending it then copies nothing), else in the transmit buffer.
     */
    PacketBuilder startPacket(int opcode) {
        MemorySegment slot = link.sendSlot();
        txPacket = slot != null && slot.byteSize() >= LARGEST_PACKET ? slot : txSegment;
        return builder.start(txPacket, 0, opcode);
    }

    /** Finishes the packet started and sends it to the QP's peer. */
    void transmit(QpEngine qp, int payloadLength) {
        send(qp, payloadLength, qp.flow, qp.peer, qp.sourcePort);
    }

    /** Finishes the packet and sends it to a UD destination. */
    void transmitTo(QpEngine qp, AddressTarget target, int payloadLength) {
        send(qp, payloadLength, target.flow(), target.address(), local.getPort());
    }

    private void send(QpEngine qp, int payloadLength, UdpFlow flow, InetSocketAddress destination, int sourcePort) {
        int length = rxeFlushIcrc && builder.opcode() == Opcodes.RC_FLUSH
                ? builder.finishRxeFlush(payloadLength, icrc, flow, 0)
                : builder.finish(payloadLength, icrc, flow, 0);
        record(txPacket, 0, length, flow, 0);
        if (sendPacket(length, destination, sourcePort)) {
            counters.increment(Counters.PACKETS_OUT);
            counters.add(Counters.BYTES_OUT, length);
            qp.counters.increment(Counters.PACKETS_OUT);
        } else {
            counters.increment(Counters.DROP_SEND_FAILED);
        }
    }

    /** Hands the packet built to the link, from where it was built. */
    private boolean sendPacket(int length, InetSocketAddress destination, int sourcePort) {
        return txPacket == txSegment
                ? link.send(txBuffer, length, destination, sourcePort)
                : link.sendFromSlot(length, destination, sourcePort);
    }

    /**
     * Writes a packet to the capture, if one is on, with the IPv4 Identification its ICRC was
     * computed with: 0 for ours (our socket sends ID 0), the recovered one for a received
     * packet, 0 for one that failed the check (the capture then shows it as bad).
     */
    private void record(MemorySegment packet, long offset, int length, UdpFlow flow, int ipv4Id) {
        PcapWriter pcap = capture;
        if (pcap != null) {
            try {
                pcap.write(System.currentTimeMillis() * 1_000_000L, flow, ipv4Id, packet, offset, length);
            } catch (java.io.IOException e) {
                capture = null; // a failing capture must not stop the device
            }
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            // What was executed is acknowledged, as an adapter that acknowledges on arrival would have.
            sendHeldAcks(heldAckCount);
            leaveSweepLocked();
            if (mbeans != null) {
                mbeans.close();
                mbeans = null;
            }
            link.close();
            arena.close();
        } finally {
            lock.unlock();
        }
    }
}
