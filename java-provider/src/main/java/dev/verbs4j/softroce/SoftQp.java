package dev.verbs4j.softroce;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DataInOrder;
import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.engine.DeviceLimits;
import dev.verbs4j.softroce.engine.InlineSource;
import dev.verbs4j.softroce.engine.QpEngine;
import dev.verbs4j.softroce.memory.KeyCheck;
import dev.verbs4j.spi.Resource;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/** A queue pair: the API face of a {@link QpEngine}. */
final class SoftQp extends Resource implements QueuePair {
    private final SoftPd pd;
    private final SoftCq sendCq;
    private final SoftCq recvCq;
    private final SoftSrq srq;
    final QpEngine engine;
    private final DeviceEngine device;
    private final boolean manual;
    private final InlineSource inlineSource = this::copyInline;

    private SoftQp(SoftPd pd, SoftCq sendCq, SoftCq recvCq, SoftSrq srq, QpEngine engine) {
        super("queue pair", pd, sendCq, recvCq, srq);
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.engine = engine;
        this.device = pd.context.engine;
        this.manual = pd.context.device.manual();
    }

    static SoftQp create(SoftPd pd, QpInitAttributes a) {
        SoftCq scq = ownCq(pd, a.sendCq());
        SoftCq rcq = ownCq(pd, a.recvCq());
        SoftSrq srq = null;
        if (a.srq() != null) {
            if (!(a.srq() instanceof SoftSrq s) || s.pd.context != pd.context) {
                throw new VerbsException(Errno.EINVAL, "shared receive queue belongs to another device");
            }
            if (a.type() != QpType.RC && a.type() != QpType.UD) {
                throw new VerbsException(Errno.EINVAL, "a " + a.type() + " QP cannot use an SRQ here");
            }
            srq = s;
        }
        DeviceLimits l = pd.context.device.config().limits();
        if (a.maxSendWr() > l.maxQpWr() || a.maxRecvWr() > l.maxQpWr() || a.maxSendSge() > l.maxSge()
                || a.maxRecvSge() > l.maxSge() || a.maxInlineData() > l.maxInlineData()) {
            throw new VerbsException(Errno.EINVAL, "QP capacities exceed the device limits (max_qp_wr " + l.maxQpWr()
                    + ", max_sge " + l.maxSge() + ", max_inline " + l.maxInlineData() + ")");
        }
        Set<WrOpcode> ops = a.operations();
        EnumSet<WrOpcode> supported = supportedOperations(a.type());
        if (!supported.containsAll(ops)) {
            EnumSet<WrOpcode> extra = EnumSet.copyOf(ops);
            extra.removeAll(supported);
            throw new VerbsException(Errno.EOPNOTSUPP, a.type() + " queue pairs do not support " + extra);
        }
        // Hold the queues while the engine's queue pair is made, so none closes under it
        // (a racing close fails with EBUSY) and the queue pair never reaches the engine alone.
        scq.retain();
        try {
            rcq.retain();
            try {
                if (srq != null) {
                    srq.retain();
                }
                try {
                    QpEngine qp = pd.context.engine.createQp(a.type(), pd.handle, scq.ring, rcq.ring,
                            srq == null ? null : srq.queue, a.maxSendWr(), a.maxRecvWr(), a.maxSendSge(),
                            a.maxRecvSge(), a.maxInlineData(), a.signalAll(), ops);
                    return new SoftQp(pd, scq, rcq, srq, qp);
                } finally {
                    if (srq != null) {
                        srq.release();
                    }
                }
            } finally {
                rcq.release();
            }
        } finally {
            scq.release();
        }
    }

    /** What a soft QP can do per transport: FLUSH and ATOMIC WRITE on RC, fast registration on RC and UC. */
    private static EnumSet<WrOpcode> supportedOperations(QpType type) {
        EnumSet<WrOpcode> ops = QpInitAttributes.defaultOperations(type);
        if (type == QpType.RC) {
            ops.add(WrOpcode.FLUSH);
            ops.add(WrOpcode.ATOMIC_WRITE);
        }
        if (type != QpType.UD) {
            ops.add(WrOpcode.REG_MR);
        }
        return ops;
    }

    private static SoftCq ownCq(SoftPd pd, CompletionQueue cq) {
        if (!(cq instanceof SoftCq s) || s.context != pd.context) {
            throw new VerbsException(Errno.EINVAL, "completion queue belongs to another device");
        }
        return s;
    }

    @Override
    public int qpn() {
        return engine.qpn();
    }

    @Override
    public QpType type() {
        return engine.type();
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public CompletionQueue sendCq() {
        return sendCq;
    }

    @Override
    public CompletionQueue recvCq() {
        return recvCq;
    }

    @Override
    public SharedReceiveQueue srq() {
        return srq;
    }

    @Override
    public QpState state() {
        ensureOpen();
        return engine.state();
    }

    @Override
    public void modify(QpAttributes attributes) {
        ensureOpen();
        try {
            device.modifyQp(engine, attributes);
        } catch (VerbsException e) {
            throw closedMeanwhileOr(e);
        }
    }

    @Override
    public QpAttributes query(QpAttributes out) {
        ensureOpen();
        return device.queryQp(engine, out);
    }

    @Override
    public void postSend(SendWorkRequest wr) {
        ensureOpen();
        try {
            postOpen(wr);
        } catch (VerbsException e) {
            throw closedMeanwhileOr(e);
        }
        // A manual device runs on its driver's clock alone: what a post sends at once (a
        // poll-driven engine's requests) goes at the time of its last step, not the machine's.
        device.posted(engine, manual ? device.lastStepNs() : System.nanoTime());
    }

    /**
     * Posts and calls do not hold this queue pair's monitor, so a close can run between
     * their check and the engine's answer: the engine then sees the queue pair in RESET.
     * That refusal is reported as what it is, a call on a closed queue pair.
     */
    private RuntimeException closedMeanwhileOr(VerbsException e) {
        return isClosing() ? new IllegalStateException("queue pair is closed", e) : e;
    }

    private void postOpen(SendWorkRequest wr) {
        checkNamedObjects(wr);
        if (wr.opcode() == WrOpcode.BIND_MW) {
            postBind(wr);
            return;
        }
        if (engine.type() == QpType.UD && wr.ah() != null && !(wr.ah() instanceof SoftAh ah && ah.pd.context.engine == device)) {
            throw new VerbsException(Errno.EINVAL, "the address handle belongs to another device or provider");
        }
        FreedMemory.refuse(device, pd, wr.sges());
        engine.postSend(wr, inlineSource);
    }

    private void postBind(SendWorkRequest wr) {
        {
            if (!(wr.mw() instanceof SoftMw mw)) {
                throw new VerbsException(Errno.EINVAL, "BIND_MW needs a window of this provider");
            }
            if (wr.region() == null) {
                throw new VerbsException(Errno.EINVAL, "BIND_MW needs a region, also a zero-length one");
            }
            if (wr.region().protectionDomain() != pd) {
                throw new VerbsException(Errno.EINVAL, "the bound region is in another protection domain");
            }
            engine.postSend(wr, inlineSource);
            if (mw.type() == dev.verbs4j.MwType.TYPE_2) {
                mw.rkeyPosted(wr.newKey());
            }
        }
    }

    /**
     * The address handle, window and region a request names must be this provider's and
     * open: a UD send through a closed handle, or a bind of a closed window, is refused at
     * post time ({@code EINVAL}), as the ibverbs provider refuses it before a freed object
     * reaches libibverbs. (One closed after the post is the engine's to refuse.)
     */
    private void checkNamedObjects(SendWorkRequest wr) {
        if (type() == QpType.UD && !(wr.ah() instanceof SoftAh ah && !ah.isClosed())) {
            throw new VerbsException(Errno.EINVAL, wr.ah() == null ? "a UD send needs an address handle"
                    : wr.ah() instanceof SoftAh ? "the address handle is closed"
                    : "the address handle belongs to another provider");
        }
        WrOpcode op = wr.opcode();
        if (op == WrOpcode.BIND_MW && wr.mw() instanceof Resource mw && mw.isClosed()) {
            throw new VerbsException(Errno.EINVAL, "BIND_MW names a closed window");
        }
        if ((op == WrOpcode.BIND_MW || op == WrOpcode.REG_MR) && wr.region() instanceof Resource r && r.isClosed()) {
            throw new VerbsException(Errno.EINVAL, op + " names a closed region");
        }
    }

    /**
     * Posts a list in order. A list the send queue has no room for is refused whole
     * ({@code ENOMEM}), as libibverbs providers refuse a batch; otherwise a request that is
     * refused ends the list, and those before it stay posted.
     */
    @Override
    public int postSend(SendWorkRequest[] wrs, int count) {
        ensureOpen();
        if (count < 0 || count > wrs.length) {
            throw new VerbsException(Errno.EINVAL, "count " + count + " is outside the array of " + wrs.length);
        }
        int room = engine.sendQueueRoom();
        if (room < count) {
            throw new VerbsException(Errno.ENOMEM, "send queue has room for " + room + " of the " + count + " requests");
        }
        try {
            for (int i = 0; i < count; i++) {
                postOpen(wrs[i]);
            }
        } catch (VerbsException e) {
            throw closedMeanwhileOr(e);
        }
        return count;
    }

    /**
     * Nothing is promised: the engine places a message's packets in order, but another thread
     * polling the memory may see its bytes in any order until the completion (or a later
     * message) arrives, as the Java memory model allows.
     */
    @Override
    public Set<DataInOrder> dataInOrder(WrOpcode opcode) {
        ensureOpen();
        return Set.of();
    }

    @Override
    public void postRecv(ReceiveWorkRequest wr) {
        ensureOpen();
        if (srq != null) {
            throw new VerbsException(Errno.EINVAL, "this QP receives from its SRQ; post there");
        }
        if (engine.state() == QpState.RESET) {
            throw closedMeanwhileOr(new VerbsException(Errno.EINVAL, "QP " + qpn() + " is in RESET"));
        }
        FreedMemory.refuse(device, pd, wr.sges());
        engine.recvQueue().post(wr);
    }

    /**
     * Copies inline data at post time. An entry added with a segment is read through it while
     * its arena is open; any other entry must lie in the registered region of this PD that its
     * lkey names. Every other address is refused ({@code EINVAL}) before a byte is read, so no
     * address reaches memory the process has not mapped.
     */
    private void copyInline(ScatterGatherList sges, MemorySegment target) {
        device.lock().lock();
        try {
            long at = 0;
            for (int i = 0; i < sges.count(); i++) {
                int len = sges.length(i);
                if (len == 0) {
                    continue;
                }
                MemorySegment segment = sges.segment(i);
                if (segment != null) {
                    copySegment(i, segment, sges.address(i) - segment.address(), target, at, len);
                } else if (device.memory().checkLocal(sges.lkey(i), pd.handle, sges.address(i), len, false) == KeyCheck.OK) {
                    if (!device.memory().region().copyOut(device.memory().offset(), target, at, len)) {
                        device.memory().foundFreed(device.memory().region());
                        throw new VerbsException(Errno.EFAULT, FreedMemory.message(i, sges.lkey(i)));
                    }
                } else {
                    throw new VerbsException(Errno.EINVAL, unreadableInline(i, sges.address(i), len, sges.lkey(i)));
                }
                at += len;
            }
        } finally {
            device.lock().unlock();
        }
    }

    private static void copySegment(int entry, MemorySegment segment, long offset, MemorySegment target, long at, int len) {
        try {
            MemorySegment.copy(segment, offset, target, at, len);
        } catch (IllegalStateException closed) {
            throw new VerbsException(Errno.EINVAL, "inline entry " + entry + ": its segment's arena is closed");
        }
    }

    static String unreadableInline(int entry, long address, int length, int lkey) {
        return "inline entry " + entry + " (" + length + " bytes at 0x" + Long.toHexString(address) + ", lkey 0x"
                + Integer.toHexString(lkey) + ") lies in no registered region its lkey names; give memory outside"
                + " regions with ScatterGatherList.add(MemorySegment, offset, length)";
    }

    @Override
    protected void destroy() {
        device.destroyQp(engine);
    }
}
