package dev.verbs4j.softroce.engine;

import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.Errno;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpAttrMask;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.softroce.monitor.SoftEvents;
import dev.verbs4j.softroce.wire.Psn;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Set;

/**
 * The transport state of one queue pair: its attributes, its queues and its three
 * engines ({@link Requester}, {@link Responder}, {@link Completer}). Everything here is
 * touched by the device's engine thread, or by control calls holding the device lock;
 * application threads only append to the queues.
 */
public final class QpEngine {
    final DeviceEngine device;
    final int qpn;
    final QpType type;
    final int pdHandle;
    final CompletionRing sendCq;
    final CompletionRing recvCq;
    final RecvQueue rq;
    final boolean sharedRq;
    final SendQueue sq;
    final boolean signalAll;
    final int maxInline;
    final int maxSendSge;
    private final boolean[] allowed = new boolean[WrOpcode.values().length];

    volatile QpState state = QpState.RESET;
    int accessMask;
    int pkeyIndex;
    int port = 1;
    int qkey;
    Mtu pathMtu = Mtu.MTU_256;
    int mtu = 256;
    int destQpn;
    int rqPsn;
    int sqPsn;
    /** Whether the responder and the requester run from the PSNs set at RTR and RTS (until the next RESET). */
    private boolean responderStarted;
    private boolean requesterStarted;
    int timeout;
    int retryCount;
    int rnrRetry;
    int minRnrTimer;
    int maxRdAtomic;
    int maxDestRdAtomic;
    AddressHandleAttributes av;
    InetSocketAddress peer;
    /** The UDP port this QP's packets leave from (see {@link RoceSourcePort}). */
    int sourcePort;
    final UdpFlow flow = new UdpFlow();

    final Counters counters = new Counters();
    final Requester requester;
    final Responder responder;
    final Completer completer;

    QpEngine(DeviceEngine device, int qpn, QpType type, int pdHandle, CompletionRing sendCq, CompletionRing recvCq,
             RecvQueue sharedQueue, int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInline,
             boolean signalAll, Set<WrOpcode> operations, Arena arena) {
        this.device = device;
        this.qpn = qpn;
        this.type = type;
        this.pdHandle = pdHandle;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.sharedRq = sharedQueue != null;
        this.rq = sharedQueue != null ? sharedQueue : new RecvQueue(Math.max(1, maxRecvWr), maxRecvSge);
        this.sq = new SendQueue(maxSendWr, maxSendSge, maxInline, arena);
        this.maxInline = maxInline;
        this.maxSendSge = maxSendSge;
        this.signalAll = signalAll;
        for (WrOpcode op : operations) {
            allowed[op.ordinal()] = true;
        }
        if (type == QpType.UD) {
            // UD has no path MTU attribute: datagrams use the port's MTU (rxe get_mtu).
            pathMtu = device.portMtu();
            mtu = pathMtu.bytes();
        }
        this.requester = new Requester(this);
        this.completer = new Completer(this);
        this.responder = new Responder(this);
    }

    public int qpn() {
        return qpn;
    }

    public QpType type() {
        return type;
    }

    public QpState state() {
        return state;
    }

    public Counters counters() {
        return counters;
    }

    public RecvQueue recvQueue() {
        return rq;
    }

    /** The operations the QP was created for. */
    public Set<WrOpcode> operations() {
        EnumSet<WrOpcode> set = EnumSet.noneOf(WrOpcode.class);
        for (WrOpcode op : WrOpcode.values()) {
            if (allowed[op.ordinal()]) {
                set.add(op);
            }
        }
        return set;
    }

    // ---- posting (application threads) ---------------------------------------------------

    /** How many more send requests fit in the send queue now. */
    public int sendQueueRoom() {
        return sq.room();
    }

    /**
     * Validates and queues a send request ({@code ibv_post_send}'s checks).
     *
     * @throws VerbsException {@code EINVAL} for a request the QP cannot take, {@code ENOMEM} when full
     */
    public void postSend(SendWorkRequest wr, InlineSource inline) {
        QpState s = state;
        if (s == QpState.RESET || s == QpState.INIT || s == QpState.RTR) {
            throw new VerbsException(Errno.EINVAL, "QP " + qpn + " is in " + s + "; sends need RTS");
        }
        WrOpcode op = wr.opcode();
        if (!allowed[op.ordinal()]) {
            throw new VerbsException(Errno.EINVAL, op + " is not enabled on this " + type + " QP"
                    + (op == WrOpcode.FLUSH || op == WrOpcode.ATOMIC_WRITE ? " (create it with allow(" + op + "))" : ""));
        }
        if (wr.sges().count() > maxSendSge) {
            throw new VerbsException(Errno.EINVAL, "request has " + wr.sges().count() + " entries, QP max is " + maxSendSge);
        }
        boolean inlineData = (wr.flags() & dev.verbs4j.SendFlag.INLINE.value()) != 0 && !op.isLocal()
                && op != WrOpcode.RDMA_READ && op != WrOpcode.ATOMIC_CMP_AND_SWP && op != WrOpcode.ATOMIC_FETCH_AND_ADD;
        if (inlineData && wr.sges().totalLength() > maxInline) {
            throw new VerbsException(Errno.EINVAL, "inline data of " + wr.sges().totalLength() + " bytes exceeds max_inline_data "
                    + maxInline);
        }
        if (type == QpType.UD && wr.ah() == null) {
            throw new VerbsException(Errno.EINVAL, "a UD send needs an address handle");
        }
        if (op == WrOpcode.FLUSH && (wr.flushType() & ~3) != 0 || op == WrOpcode.FLUSH && wr.flushType() == 0) {
            throw new VerbsException(Errno.EINVAL, "FLUSH placement type must be GLOBAL and/or PERSISTENT");
        }
        sq.post(wr, inlineData ? inline : null);
        device.wakeup();
    }

    // ---- modify (under the device lock) --------------------------------------------------

    /** Applies {@code ibv_modify_qp}. @throws VerbsException {@code EINVAL} for an illegal transition or attribute */
    void modify(QpAttributes a, DeviceLimits limits) {
        // A request executed is acknowledged whatever the queue pair does next, as an adapter
        // that acknowledges on arrival would have: a held acknowledgement goes first.
        responder.sendHeldAck();
        int mask = a.mask();
        QpState from = state;
        QpState to = QpAttrMask.STATE.isSet(mask) ? a.state() : from;
        if (QpAttrMask.CUR_STATE.isSet(mask) && a.currentState() != from) {
            throw new VerbsException(Errno.EINVAL, "QP " + qpn + " is in " + from + ", not " + a.currentState());
        }
        int required = QpTransitions.required(type, from, to);
        if (required < 0) {
            throw new VerbsException(Errno.EINVAL, "illegal QP transition " + from + " -> " + to + " for " + type);
        }
        int optional = QpTransitions.optional(type, from, to);
        if ((mask & required) != required) {
            throw new VerbsException(Errno.EINVAL, "transition " + from + " -> " + to + " needs attributes "
                    + missing(required & ~mask));
        }
        // The state itself may always be named, also for a transition to the same state.
        int allowed = required | optional | QpAttrMask.STATE.value();
        if ((mask & ~allowed) != 0) {
            throw new VerbsException(Errno.EINVAL, "transition " + from + " -> " + to + " does not take attributes "
                    + missing(mask & ~allowed));
        }
        validateValues(a, mask, limits);
        apply(a, mask);
        if (to != from || to == QpState.RESET) {
            enter(to, from);
        }
    }

    private static String missing(int bits) {
        StringBuilder sb = new StringBuilder();
        for (QpAttrMask m : QpAttrMask.values()) {
            if (m.isSet(bits)) {
                sb.append(sb.isEmpty() ? "" : ", ").append(m);
            }
        }
        return sb.toString();
    }

    private void validateValues(QpAttributes a, int mask, DeviceLimits limits) {
        check(!QpAttrMask.PORT.isSet(mask) || a.port() == 1, "port " + a.port() + " (the device has port 1)");
        check(!QpAttrMask.PKEY_INDEX.isSet(mask) || a.pkeyIndex() == 0, "P_Key index " + a.pkeyIndex());
        check(!QpAttrMask.TIMEOUT.isSet(mask) || (a.timeout() >= 0 && a.timeout() <= 31), "timeout " + a.timeout());
        check(!QpAttrMask.RETRY_CNT.isSet(mask) || (a.retryCount() >= 0 && a.retryCount() <= 7), "retry count " + a.retryCount());
        check(!QpAttrMask.RNR_RETRY.isSet(mask) || (a.rnrRetry() >= 0 && a.rnrRetry() <= 7), "RNR retry " + a.rnrRetry());
        check(!QpAttrMask.MIN_RNR_TIMER.isSet(mask) || (a.minRnrTimer() >= 0 && a.minRnrTimer() <= 31),
                "min RNR timer " + a.minRnrTimer());
        check(!QpAttrMask.RQ_PSN.isSet(mask) || Psn.isValid(a.rqPsn()), "RQ PSN " + a.rqPsn());
        check(!QpAttrMask.SQ_PSN.isSet(mask) || Psn.isValid(a.sqPsn()), "SQ PSN " + a.sqPsn());
        check(!QpAttrMask.DEST_QPN.isSet(mask) || (a.destQpn() & ~0xffffff) == 0, "dest QPN " + a.destQpn());
        check(!QpAttrMask.MAX_QP_RD_ATOMIC.isSet(mask) || (a.maxRdAtomic() >= 0 && a.maxRdAtomic() <= limits.maxQpInitRdAtom()),
                "max_rd_atomic " + a.maxRdAtomic() + " (device max " + limits.maxQpInitRdAtom() + ")");
        check(!QpAttrMask.MAX_DEST_RD_ATOMIC.isSet(mask)
                || (a.maxDestRdAtomic() >= 0 && a.maxDestRdAtomic() <= limits.maxQpRdAtom()),
                "max_dest_rd_atomic " + a.maxDestRdAtomic() + " (device max " + limits.maxQpRdAtom() + ")");
        check(!QpAttrMask.PATH_MTU.isSet(mask) || a.pathMtu().bytes() <= limits.maxMtu().bytes(),
                "path MTU " + a.pathMtu() + " above the port's " + limits.maxMtu());
        if (QpAttrMask.AV.isSet(mask)) {
            check(a.av() != null && a.av().port() == 1, "address vector");
            check(a.av().sgidIndex() >= 0 && a.av().sgidIndex() < limits.gidTableLength(), "source GID index " + a.av().sgidIndex());
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new VerbsException(Errno.EINVAL, "invalid QP attribute: " + what);
        }
    }

    private void apply(QpAttributes a, int mask) {
        if (QpAttrMask.ACCESS_FLAGS.isSet(mask)) accessMask = a.accessMask();
        if (QpAttrMask.PKEY_INDEX.isSet(mask)) pkeyIndex = a.pkeyIndex();
        if (QpAttrMask.PORT.isSet(mask)) port = a.port();
        if (QpAttrMask.QKEY.isSet(mask)) qkey = a.qkey();
        if (QpAttrMask.PATH_MTU.isSet(mask)) {
            pathMtu = a.pathMtu();
            mtu = pathMtu.bytes();
        }
        if (QpAttrMask.DEST_QPN.isSet(mask)) destQpn = a.destQpn();
        if (QpAttrMask.RQ_PSN.isSet(mask)) rqPsn = a.rqPsn();
        if (QpAttrMask.SQ_PSN.isSet(mask)) sqPsn = a.sqPsn();
        if (QpAttrMask.TIMEOUT.isSet(mask)) timeout = a.timeout();
        if (QpAttrMask.RETRY_CNT.isSet(mask)) retryCount = a.retryCount();
        if (QpAttrMask.RNR_RETRY.isSet(mask)) rnrRetry = a.rnrRetry();
        if (QpAttrMask.MIN_RNR_TIMER.isSet(mask)) minRnrTimer = a.minRnrTimer();
        if (QpAttrMask.MAX_QP_RD_ATOMIC.isSet(mask)) maxRdAtomic = a.maxRdAtomic();
        if (QpAttrMask.MAX_DEST_RD_ATOMIC.isSet(mask)) maxDestRdAtomic = a.maxDestRdAtomic();
        if (QpAttrMask.AV.isSet(mask)) {
            av = a.av();
            peer = device.peerAddress(av.dgid());
            sourcePort = device.sourcePort(av.sgidIndex(), peer, RoceSourcePort.of(av.flowLabel(), qpn, destQpn));
            device.flowTo(peer, device.sourceAddress(av.sgidIndex(), peer), sourcePort, flow);
        }
    }

    private void enter(QpState to, QpState from) {
        switch (to) {
            case RESET -> {
                sq.clear();
                if (!sharedRq) {
                    rq.clear();
                }
                requester.reset(0);
                completer.reset(0);
                responder.reset(0);
                responderStarted = false;
                requesterStarted = false;
            }
            case RTR -> {
                responder.reset(rqPsn);
                responderStarted = true;
            }
            case RTS -> {
                if (from == QpState.RTR) {
                    requester.reset(sqPsn);
                    completer.reset(sqPsn);
                    requesterStarted = true;
                }
            }
            case ERR -> counters.increment(Counters.DROP_QP_STATE);
            default -> {
            }
        }
        if (to == QpState.ERR && state != QpState.ERR) {
            SoftEvents.queuePairError(device.name(), qpn, "modify");
        }
        state = to;
        if (to == QpState.ERR) {
            device.wakeup();
        }
    }

    /** Moves the QP to the error state from inside the engine (fatal transport error). */
    void enterError(AsyncEventType event) {
        enterError(event, event != null ? event.name() : "transport error");
    }

    /** As {@link #enterError(AsyncEventType)}, naming the cause for the JFR event. */
    void enterError(AsyncEventType event, String cause) {
        if (state != QpState.ERR) {
            responder.sendHeldAck();
            state = QpState.ERR;
            SoftEvents.queuePairError(device.name(), qpn, cause);
            if (event != null) {
                device.asyncEvent(event, qpn);
            }
        }
    }

    /**
     * Fills {@code out} with the current attributes. As the kernel rxe reports them, the PSNs
     * are live once the transport runs: the next PSN the responder expects and the next PSN
     * the requester sends (before that, the values set).
     */
    QpAttributes query(QpAttributes out) {
        out.clear().state(state).currentState(state).accessMask(accessMask).pkeyIndex(pkeyIndex).port(port)
                .qkey(qkey).pathMtu(pathMtu).destQpn(destQpn)
                .rqPsn(responderStarted ? responder.ePsn : rqPsn).sqPsn(requesterStarted ? requester.psn : sqPsn).timeout(timeout)
                .retryCount(retryCount).rnrRetry(rnrRetry).minRnrTimer(minRnrTimer).maxRdAtomic(maxRdAtomic)
                .maxDestRdAtomic(maxDestRdAtomic)
                .capacity(sq.capacity(), sharedRq ? 0 : rq.capacity(), maxSendSge, rq.maxSge(), maxInline);
        if (av != null) {
            out.av(av);
        }
        return out;
    }

    /** One engine step: flush if in error, send, time out, report completions. */
    /** Sends what was posted and is due, as a step would ({@link DeviceEngine#posted}); call with the lock held. */
    void transmit(long nowNs) {
        if (state == QpState.RTS || state == QpState.SQD) {
            requester.doWork(nowNs);
        }
    }

    int doWork(long nowNs) {
        int work = 0;
        if (state == QpState.ERR) {
            work += completer.flush();
            work += responder.flushReceives();
            return work;
        }
        if (state == QpState.RTS || state == QpState.SQD) {
            work += requester.doWork(nowNs);
        }
        if (state == QpState.RTR || state == QpState.RTS || state == QpState.SQD || state == QpState.SQE) {
            work += responder.continueReads(Responder.READ_PACKETS_PER_STEP);
        }
        work += completer.doWork(nowNs);
        return work;
    }

    /**
     * Reports the oldest send queue entry and frees its slot. The slot is freed before the
     * completion becomes visible, so a caller that polls it may post again at once.
     */
    void completeOldestSend() {
        Wqe w = sq.at(sq.head());
        long wrId = w.wrId;
        WcStatus status = w.status;
        WrOpcode opcode = w.opcode;
        int flags = w.flags;
        long totalLength = w.totalLength;
        sq.advanceHead();
        boolean signaled = signalAll || (flags & dev.verbs4j.SendFlag.SIGNALED.value()) != 0 || status != WcStatus.SUCCESS;
        if (!signaled) {
            return;
        }
        int byteLength = switch (opcode) {
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> 8;
            default -> (int) totalLength;
        };
        if (!sendCq.push(wrId, status, opcode.completionOpcode(), byteLength, qpn, 0, 0, 0, true)) {
            device.cqOverflow(sendCq);
        }
    }
}
