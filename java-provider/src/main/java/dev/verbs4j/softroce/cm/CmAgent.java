package dev.verbs4j.softroce.cm;

import dev.verbs4j.Gid;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpType;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.RejectReason;
import dev.verbs4j.softroce.engine.GsiAgent;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import static dev.verbs4j.softroce.cm.CmMad.*;

/**
 * The IB connection manager of one soft device, on QP1: it sends and answers REQ, REP, RTU,
 * REJ, MRA, DREQ and DREP as IBTA chapter 12 and the kernel's ib_cm do, retransmits what is
 * not answered, and tells each connection's {@link CmEndpoint} what happened. It runs on
 * the engine's thread (MADs and timers, with the time passed in) and under the engine's
 * lock (the calls of ids). A MAD it cannot read is dropped and counted, never thrown.
 */
public final class CmAgent implements GsiAgent {
    /** The ACK delay this side announces in REP (4.096 µs × 2^value). */
    private static final int TARGET_ACK_DELAY = 15;

    private final MadSink sink;
    private final CmListeners listeners;
    private final long caGuid;
    private final InetAddress localAddress;
    private final Gid localGid;
    private final Mtu portMtu;
    private final CmTimeouts timeouts;
    private final RandomGenerator random;
    private final int highTid;
    private final Map<Integer, CmConnection> byLocalId = new HashMap<>();
    private final Map<RemoteId, CmConnection> byRemoteId = new HashMap<>();
    private final List<CmConnection> due = new ArrayList<>();
    private final MemorySegment out = Arena.ofAuto().allocate(CmMad.SIZE, 8);
    private long dropped;
    private long nextDeadlineNs = Long.MAX_VALUE;

    private record RemoteId(long caGuid, int commId) {
    }

    public CmAgent(MadSink sink, CmListeners listeners, long caGuid, InetAddress localAddress, Mtu portMtu,
                   CmTimeouts timeouts, RandomGenerator random) {
        this.sink = sink;
        this.listeners = listeners;
        this.caGuid = caGuid;
        this.localAddress = localAddress;
        this.localGid = Gid.of(localAddress);
        this.portMtu = portMtu;
        this.timeouts = timeouts;
        this.random = random;
        this.highTid = random.nextInt();
    }

    /** An agent with the RDMA CM's timing, or the system properties' ({@link CmTimeouts}). */
    public static CmAgent withDefaults(MadSink sink, CmListeners listeners, long caGuid, InetAddress localAddress,
                                       Mtu portMtu, RandomGenerator random) {
        return new CmAgent(sink, listeners, caGuid, localAddress, portMtu, CmTimeouts.fromSystemProperties(), random);
    }

    /** MADs that were malformed, unexpected, or named no connection. */
    public long dropped() {
        return dropped;
    }

    public InetAddress localAddress() {
        return localAddress;
    }

    /** Connections this agent still tracks (time-wait included). */
    public int connections() {
        return byLocalId.size();
    }

    // ---- calls of ids ------------------------------------------------------------------------

    /**
     * Sends a REQ.
     *
     * @param qpn       the local queue pair
     * @param psn       the first PSN this side expects to receive (the peer sends it first)
     * @param pathMtu   the path MTU this side chose
     */
    public CmConnection connect(CmEndpoint endpoint, long serviceId, InetSocketAddress from, InetSocketAddress to,
                                QpType type, int qpn, int psn, Mtu pathMtu, ConnectionParameters parameters, long nowNs) {
        CmConnection c = new CmConnection(true, newCommId(), to.getAddress());
        c.endpoint = endpoint;
        c.serviceId = serviceId;
        c.localQpn = qpn;
        c.localPsn = psn;
        c.pathMtu = pathMtu;
        c.remoteGid = Gid.of(to.getAddress());
        c.transactionId = transactionId(c);
        c.maxRetries = timeouts.maxRetries();
        CmMessages.req(c.pending, c, type, parameters, from, to, localGid, caGuid, timeouts);
        byLocalId.put(c.localCommId, c);
        c.state = CmState.REQ_SENT;
        sendPending(c, timeouts.answerNs(timeouts.responseTimeout()), nowNs);
        return c;
    }

    /** Passive side: answers the REQ with a REP; the queue pair is already in RTR or RTS. */
    public void accept(CmConnection c, int qpn, int psn, ConnectionParameters parameters, long nowNs) {
        requireState(c, CmState.REQ_RCVD);
        c.localQpn = qpn;
        c.localPsn = psn;
        CmMessages.rep(c.pending, c, parameters, caGuid, TARGET_ACK_DELAY);
        c.state = CmState.REP_SENT;
        sendPending(c, timeouts.answerNs(c.peerResponseTimeout), nowNs);
    }

    /** Active side: the queue pair is up after the REP; sends RTU, and the connection is established. */
    public void ready(CmConnection c) {
        requireState(c, CmState.REP_RCVD);
        CmMessages.rtu(out, c);
        send(c.peer, out);
        c.state = CmState.ESTABLISHED;
    }

    /** Refuses a request (passive) or a reply (active) with {@code reason} and private data. */
    public void reject(CmConnection c, int reason, byte[] privateData) {
        int message = c.active ? MESSAGE_REP : MESSAGE_REQ;
        if (c.state != CmState.REQ_RCVD && c.state != CmState.REP_RCVD) {
            throw new IllegalStateException("no request or reply to reject in " + c.state);
        }
        CmMessages.rej(out, c.transactionId, c.state == CmState.REQ_RCVD ? 0 : c.localCommId, c.remoteCommId, message,
                reason, privateData);
        send(c.peer, out);
        forget(c);
    }

    /** Sends DREQ; {@link CmEndpoint#onDisconnected} follows when DREP comes or the DREQ times out. */
    public void disconnect(CmConnection c, long nowNs) {
        if (c.state == CmState.DREQ_RCVD) {
            CmMessages.drep(out, c);
            send(c.peer, out);
            enterTimewait(c, nowNs);
            return;
        }
        if (c.state != CmState.ESTABLISHED && c.state != CmState.REP_SENT && c.state != CmState.MRA_REP_RCVD) {
            return; // already going down, or never up: nothing to say to the peer
        }
        CmMessages.dreq(c.pending, c, transactionId(c));
        c.state = CmState.DREQ_SENT;
        c.maxRetries = timeouts.maxRetries();
        sendPending(c, timeouts.answerNs(c.peerResponseTimeout), nowNs);
    }

    /** The id is destroyed: tells the peer what the kernel tells it then, and forgets the connection silently. */
    public void abandon(CmConnection c) {
        switch (c.state) {
            case REQ_SENT, MRA_REQ_RCVD ->
                    sendRej(c, c.localCommId, MESSAGE_OTHER, RejectReason.TIMEOUT.value());
            case REQ_RCVD -> sendRej(c, 0, MESSAGE_REQ, RejectReason.CONSUMER_DEFINED.value());
            case REP_SENT, MRA_REP_RCVD, REP_RCVD ->
                    sendRej(c, c.localCommId, c.active ? MESSAGE_REP : MESSAGE_OTHER, RejectReason.CONSUMER_DEFINED.value());
            case ESTABLISHED -> {
                CmMessages.dreq(out, c, transactionId(c));
                send(c.peer, out);
            }
            case DREQ_RCVD -> {
                CmMessages.drep(out, c);
                send(c.peer, out);
            }
            default -> {
            }
        }
        c.endpoint = null;
        forget(c);
    }

    private void sendRej(CmConnection c, int localCommId, int message, int reason) {
        CmMessages.rej(out, c.transactionId, localCommId, c.remoteCommId, message, reason, null);
        send(c.peer, out);
    }

    // ---- MADs ---------------------------------------------------------------------------------

    @Override
    public void onMad(MemorySegment mad, InetAddress source, long nowNs) {
        switch (cmAttribute(mad)) {
            case ATTR_REQ -> onReq(mad, source, nowNs);
            case ATTR_REP -> onRep(mad, nowNs);
            case ATTR_RTU -> onRtu(mad);
            case ATTR_REJ -> onRej(mad);
            case ATTR_MRA -> onMra(mad, nowNs);
            case ATTR_DREQ -> onDreq(mad, source, nowNs);
            case ATTR_DREP -> onDrep(mad, nowNs);
            default -> dropped++;
        }
    }

    private void onReq(MemorySegment mad, InetAddress source, long nowNs) {
        long remoteGuid = u64(mad, REQ_LOCAL_CA_GUID);
        int remoteId = u32(mad, LOCAL_COMM_ID);
        CmConnection existing = byRemoteId.get(new RemoteId(remoteGuid, remoteId));
        if (existing != null) {
            // A retransmitted REQ: the REP (or MRA) timer answers it, or the REJ of time-wait.
            if (existing.state == CmState.TIMEWAIT) {
                CmMessages.rej(out, u64(mad, TID), existing.localCommId, remoteId, MESSAGE_REQ,
                        RejectReason.STALE_CONN.value(), null);
                send(source, out);
            }
            dropped++;
            return;
        }
        QpType type = CmMessages.reqTransport(mad);
        int mtuValue = CmMessages.reqPathMtu(mad);
        Mtu mtu = mtuValue >= 1 && mtuValue <= 5 ? Mtu.of(mtuValue) : null;
        if (!CmaHeader.valid(mad, REQ_PRIVATE_DATA) || mtu == null) {
            rejectRequest(mad, source, RejectReason.CONSUMER_DEFINED);
            return;
        }
        if (type == null) {
            rejectRequest(mad, source, RejectReason.INVALID_TRANSPORT_TYPE);
            return;
        }
        CmListener listener = listeners.find(u64(mad, REQ_SERVICE_ID), CmaHeader.destination(mad, REQ_PRIVATE_DATA));
        if (listener == null) {
            rejectRequest(mad, source, RejectReason.INVALID_SERVICE_ID);
            return;
        }
        CmConnection c = new CmConnection(false, newCommId(), source);
        ConnectionParameters peer = CmMessages.readReq(mad, c);
        c.pathMtu = mtu.value() < portMtu.value() ? mtu : portMtu;
        c.hopLimit = 64;
        InetSocketAddress from = CmaHeader.source(mad, REQ_PRIVATE_DATA);
        InetSocketAddress to = new InetSocketAddress(CmaHeader.destination(mad, REQ_PRIVATE_DATA),
                (int) (c.serviceId & 0xFFFF));
        c.state = CmState.REQ_RCVD;
        CmEndpoint endpoint = listener.onRequest(c, peer, from, to);
        if (endpoint == null) {
            dropped++; // no room: as the kernel does then, stay silent so that the peer retries
            return;
        }
        c.endpoint = endpoint;
        byLocalId.put(c.localCommId, c);
        byRemoteId.put(new RemoteId(c.remoteCaGuid, c.remoteCommId), c);
    }

    private void rejectRequest(MemorySegment mad, InetAddress source, RejectReason reason) {
        CmMessages.rej(out, u64(mad, TID), 0, u32(mad, LOCAL_COMM_ID), MESSAGE_REQ, reason.value(), null);
        send(source, out);
    }

    private void onRep(MemorySegment mad, long nowNs) {
        CmConnection c = byLocalId.get(u32(mad, REMOTE_COMM_ID));
        if (c == null || !c.active) {
            dropped++;
            return;
        }
        if (c.state == CmState.ESTABLISHED && u32(mad, LOCAL_COMM_ID) == c.remoteCommId) {
            CmMessages.rtu(out, c); // our RTU was lost: send it again
            send(c.peer, out);
            return;
        }
        if (c.state != CmState.REQ_SENT && c.state != CmState.MRA_REQ_RCVD) {
            dropped++;
            return;
        }
        ConnectionParameters peer = CmMessages.readRep(mad, c);
        c.retransmitting = false;
        c.state = CmState.REP_RCVD;
        byRemoteId.put(new RemoteId(c.remoteCaGuid, c.remoteCommId), c);
        c.endpoint.onReply(c, peer);
    }

    private void onRtu(MemorySegment mad) {
        CmConnection c = matching(mad);
        if (c == null || (c.state != CmState.REP_SENT && c.state != CmState.MRA_REP_RCVD)) {
            dropped++;
            return;
        }
        c.retransmitting = false;
        c.state = CmState.ESTABLISHED;
        c.endpoint.onEstablished(c, CmMessages.withPrivateData(mad, RTU_PRIVATE_DATA, RTU_PRIVATE_DATA_SIZE));
    }

    private void onRej(MemorySegment mad) {
        int message = bits(mad, REJ_MESSAGE, 0, 2);
        CmConnection c = byLocalId.get(u32(mad, REMOTE_COMM_ID));
        if (c == null || (message != MESSAGE_REQ && u32(mad, LOCAL_COMM_ID) != c.remoteCommId)) {
            dropped++;
            return;
        }
        switch (c.state) {
            case REQ_SENT, MRA_REQ_RCVD, REP_SENT, MRA_REP_RCVD, REP_RCVD, ESTABLISHED -> {
                CmEndpoint endpoint = c.endpoint;
                forget(c);
                endpoint.onRejected(c, u16(mad, REJ_REASON),
                        CmMessages.withPrivateData(mad, REJ_PRIVATE_DATA, REJ_PRIVATE_DATA_SIZE));
            }
            default -> dropped++;
        }
    }

    private void onMra(MemorySegment mad, long nowNs) {
        int message = bits(mad, MRA_MESSAGE, 0, 2);
        // An MRA for a REQ comes before this side knows the peer's id: it names ours alone.
        CmConnection c = message == MESSAGE_REQ ? byLocalId.get(u32(mad, REMOTE_COMM_ID)) : matching(mad);
        if (c == null) {
            dropped++;
            return;
        }
        long wait = CmTimeouts.nanos(bits(mad, MRA_SERVICE_TIMEOUT, 0, 5)) + 2 * CmTimeouts.nanos(timeouts.packetLife());
        if (message == MESSAGE_REQ && c.state == CmState.REQ_SENT) {
            c.state = CmState.MRA_REQ_RCVD;
        } else if (message == MESSAGE_REP && c.state == CmState.REP_SENT) {
            c.state = CmState.MRA_REP_RCVD;
        } else {
            dropped++;
            return;
        }
        // The peer needs longer: wait that long before the next (and last) resend.
        c.deadlineNs = nowNs + wait;
        c.retriesLeft = Math.max(c.retriesLeft, 1);
        nextDeadlineNs = Math.min(nextDeadlineNs, c.deadlineNs);
    }

    private void onDreq(MemorySegment mad, InetAddress source, long nowNs) {
        CmConnection c = matching(mad);
        if (c == null) {
            // No such connection (any more): answer, so that the peer stops asking.
            CmMessages.drep(out, mad);
            send(source, out);
            dropped++;
            return;
        }
        if (u24(mad, DREQ_REMOTE_QPN) != c.localQpn) {
            dropped++; // not for this connection's queue pair, as the kernel ignores it
            return;
        }
        switch (c.state) {
            case ESTABLISHED, REP_SENT, MRA_REP_RCVD -> {
                // The application answers: its disconnect (or close) sends the DREP.
                c.retransmitting = false;
                c.dreqTransactionId = u64(mad, TID);
                c.state = CmState.DREQ_RCVD;
                c.endpoint.onDisconnected(c);
            }
            case DREQ_SENT -> {
                // Both sides disconnect at once: this side's application already has.
                c.dreqTransactionId = u64(mad, TID);
                CmMessages.drep(out, c);
                send(c.peer, out);
                enterTimewait(c, nowNs);
                c.endpoint.onDisconnected(c);
            }
            case TIMEWAIT -> {
                CmMessages.drep(out, mad); // our DREP was lost
                send(c.peer, out);
            }
            default -> dropped++;
        }
    }

    private void onDrep(MemorySegment mad, long nowNs) {
        CmConnection c = matching(mad);
        if (c == null || c.state != CmState.DREQ_SENT) {
            dropped++;
            return;
        }
        enterTimewait(c, nowNs);
        c.endpoint.onDisconnected(c);
    }

    /** The connection a message names by both communication ids. */
    private CmConnection matching(MemorySegment mad) {
        CmConnection c = byLocalId.get(u32(mad, REMOTE_COMM_ID));
        return c != null && c.remoteCommId == u32(mad, LOCAL_COMM_ID) ? c : null;
    }

    // ---- timers ---------------------------------------------------------------------------------

    @Override
    public int doWork(long nowNs) {
        if (nowNs - nextDeadlineNs < 0) {
            return 0;
        }
        nextDeadlineNs = Long.MAX_VALUE;
        due.clear();
        for (CmConnection c : byLocalId.values()) {
            if (c.retransmitting || c.state == CmState.TIMEWAIT) {
                if (nowNs - c.deadlineNs >= 0) {
                    due.add(c);
                } else {
                    nextDeadlineNs = Math.min(nextDeadlineNs, c.deadlineNs);
                }
            }
        }
        for (CmConnection c : due) {
            expire(c, nowNs);
        }
        return due.size();
    }

    private void expire(CmConnection c, long nowNs) {
        if (c.state == CmState.TIMEWAIT) {
            CmEndpoint endpoint = c.endpoint;
            forget(c);
            if (endpoint != null) {
                endpoint.onTimewaitExit(c);
            }
            return;
        }
        if (c.retriesLeft > 0) {
            c.retriesLeft--;
            send(c.peer, c.pending);
            arm(c, c.deadlineNs + c.waitNs > nowNs ? c.deadlineNs + c.waitNs : nowNs + c.waitNs);
            return;
        }
        c.retransmitting = false;
        switch (c.state) {
            case REQ_SENT, MRA_REQ_RCVD -> {
                CmEndpoint endpoint = c.endpoint;
                forget(c);
                endpoint.onUnreachable(c);
            }
            case REP_SENT, MRA_REP_RCVD -> {
                sendRej(c, c.localCommId, MESSAGE_OTHER, RejectReason.TIMEOUT.value());
                CmEndpoint endpoint = c.endpoint;
                forget(c);
                endpoint.onUnreachable(c);
            }
            case DREQ_SENT -> {
                enterTimewait(c, nowNs);
                c.endpoint.onDisconnected(c);
            }
            default -> {
            }
        }
    }

    private void sendPending(CmConnection c, long waitNs, long nowNs) {
        c.waitNs = waitNs;
        c.retriesLeft = c.maxRetries;
        c.retransmitting = true;
        send(c.peer, c.pending);
        arm(c, nowNs + waitNs);
    }

    private void arm(CmConnection c, long deadlineNs) {
        c.deadlineNs = deadlineNs;
        nextDeadlineNs = Math.min(nextDeadlineNs, deadlineNs);
    }

    private void enterTimewait(CmConnection c, long nowNs) {
        c.retransmitting = false;
        c.state = CmState.TIMEWAIT;
        arm(c, nowNs + timeouts.timewaitNs());
    }

    private void forget(CmConnection c) {
        c.retransmitting = false;
        c.state = CmState.IDLE;
        byLocalId.remove(c.localCommId);
        byRemoteId.remove(new RemoteId(c.remoteCaGuid, c.remoteCommId));
    }

    private void requireState(CmConnection c, CmState state) {
        if (c.state != state) {
            throw new IllegalStateException("connection is " + c.state + ", not " + state);
        }
    }

    private void send(InetAddress destination, MemorySegment mad) {
        sink.send(destination, mad);
    }

    private int newCommId() {
        int id;
        do {
            id = random.nextInt();
        } while (id == 0 || byLocalId.containsKey(id));
        return id;
    }

    private long transactionId(CmConnection c) {
        return (long) highTid << 32 | (c.localCommId & 0xFFFF_FFFFL);
    }
}
