package dev.verbs4j.nvmeof.host;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.RegisteredArena;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.nvmeof.NvmeException;
import dev.verbs4j.nvmeof.wire.CmPrivateData;
import dev.verbs4j.nvmeof.wire.Cqe;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;

/**
 * One NVMe queue on the host side: an RC queue pair connected through the RDMA CM with the
 * transport binding's private data, {@code depth} command slots (command id = slot), as
 * many posted receives for responses. A command ends when its response has come, its
 * capsule's SEND has completed and its buffer key, if it needs one taken away, is invalid:
 * by the controller's SEND with invalidate (the receive completion says WITH_INV and names
 * the key) or else by a LOCAL_INV the host posts then.
 */
public final class HostQueue implements AutoCloseable {
    private static final long KIND_SEND = 1L << 32;
    private static final long KIND_INVALIDATE = 2L << 32;
    private static final long KIND_RECEIVE = 3L << 32;
    private static final long KIND_MASK = 0xffL << 32;
    private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(10);

    final int qid;
    final int depth;
    final int inCapsuleBytes;
    private final CmId id;
    private CompletionQueue cq;
    private QueuePair qp;
    private RegisteredArena rings;
    private MemoryRegion capsules;
    private MemoryRegion responses;
    private final int capsuleBytes;
    private BufferKeys keys;
    private SendWorkRequest[] sends;
    private SendWorkRequest[] invalidations;
    private ReceiveWorkRequest[] receives;
    private final Sqe sqe = new Sqe();
    private final Cqe cqe = new Cqe();
    private final WorkCompletion[] completions = new WorkCompletion[32];
    // Per slot: what the command is waiting for, and its answer.
    private final boolean[] busy;
    private final boolean[] sendPending;
    private final boolean[] responsePending;
    private final boolean[] invalidationPending;
    private final boolean[] keyed;
    private final int[] key;
    private final int[] status;
    private final long[] result;
    private final boolean[] remoteInvalidated;
    private final boolean[] localInvalidated;
    private final int[] free;
    private int freeCount;
    /** What failed the queue first; null while it has not failed. */
    private String failure;

    /**
     * Connects queue {@code qid} of the controller at {@code target}.
     *
     * @param keys how buffer keys are made; shared by nobody else
     * @param cntlid the controller an I/O queue joins (0 for the admin queue)
     * @throws NvmeException with the reject status when the controller refuses the queue
     */
    HostQueue(NvmeHost host, CmEventChannel channel, int qid, int depth, int cntlid, int inCapsuleBytes) {
        this.qid = qid;
        this.depth = depth;
        this.inCapsuleBytes = inCapsuleBytes;
        this.capsuleBytes = Sqe.BYTES + inCapsuleBytes;
        this.id = channel.createId(PortSpace.TCP);
        busy = new boolean[depth];
        sendPending = new boolean[depth];
        responsePending = new boolean[depth];
        invalidationPending = new boolean[depth];
        keyed = new boolean[depth];
        key = new int[depth];
        status = new int[depth];
        result = new long[depth];
        remoteInvalidated = new boolean[depth];
        localInvalidated = new boolean[depth];
        free = new int[depth];
        for (int i = depth - 1; i >= 0; i--) {
            free[freeCount++] = i;
        }
        for (int i = 0; i < completions.length; i++) {
            completions[i] = new WorkCompletion();
        }
        try {
            id.resolveAddress(host.options().source(), host.options().target(), Duration.ofSeconds(2));
            expect(channel, CmEventType.ADDR_RESOLVED);
            id.resolveRoute(Duration.ofSeconds(2));
            expect(channel, CmEventType.ROUTE_RESOLVED);
            ProtectionDomain pd = host.domain(id.device());
            this.rings = RegisteredArena.of(pd, EnumSet.of(Access.LOCAL_WRITE));
            this.keys = host.keys(depth);
            this.cq = pd.context().createCq(depth * 4 + 1);
            this.qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(depth * 3 + 1, depth, 1, 1, 0)
                    .allow(host.keyMethod().extraOperations()));
            this.capsules = rings.allocateRegion((long) capsuleBytes * depth);
            this.responses = rings.allocateRegion((long) Cqe.BYTES * depth);
            sends = new SendWorkRequest[depth];
            invalidations = new SendWorkRequest[depth];
            receives = new ReceiveWorkRequest[depth];
            for (int i = 0; i < depth; i++) {
                sends[i] = new SendWorkRequest(1).wrId(KIND_SEND | i).signaled(true);
                invalidations[i] = new SendWorkRequest(1).wrId(KIND_INVALIDATE | i).signaled(true);
                receives[i] = new ReceiveWorkRequest(1).wrId(KIND_RECEIVE | i)
                        .buffer(responses, (long) i * Cqe.BYTES, Cqe.BYTES);
            }
            id.attachQp(qp);
            for (ReceiveWorkRequest r : receives) {
                qp.postRecv(r);
            }
            int readDepth = Math.max(1, Math.min(16, pd.context().queryDevice().maxQpRdAtom()));
            id.connect(new ConnectionParameters().responderResources(readDepth).initiatorDepth(readDepth)
                    .retryCount(7).rnrRetryCount(7).flowControl(true)
                    .privateData(new CmPrivateData.Request(CmPrivateData.RECFMT_1_0, qid, depth, depth - 1, cntlid).encode()));
            CmEvent event = next(channel);
            if (event.type() == CmEventType.REJECTED) {
                int reason = CmPrivateData.rejectStatus(event.privateData());
                throw new NvmeException(NvmeException.TRANSPORT, "queue " + qid + " refused, reject status " + reason);
            }
            if (event.type() != CmEventType.ESTABLISHED) {
                throw new NvmeException(NvmeException.TRANSPORT, "queue " + qid + ": " + event);
            }
        } catch (RuntimeException e) {
            id.close();
            release();
            if (e instanceof VerbsException v) {
                throw new NvmeException(NvmeException.TRANSPORT, "queue " + qid + ": " + v.getMessage(), v);
            }
            throw e;
        }
    }

    /**
     * The next event of this queue's id. The channel is the host's, shared by its queues:
     * events of other ids (a refused queue's late DISCONNECTED) are not this queue's business.
     */
    private CmEvent next(CmEventChannel channel) {
        long deadline = System.nanoTime() + EVENT_TIMEOUT.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new NvmeException(NvmeException.TRANSPORT, "queue " + qid + ": no connection event within "
                        + EVENT_TIMEOUT);
            }
            Optional<CmEvent> event = channel.nextEvent(Duration.ofNanos(left));
            if (event.isPresent() && event.get().id() == id) {
                return event.get();
            }
        }
    }

    private void expect(CmEventChannel channel, CmEventType type) {
        CmEvent event = next(channel);
        if (event.type() != type) {
            throw new NvmeException(NvmeException.TRANSPORT, "queue " + qid + ": expected " + type + ", got " + event);
        }
    }

    /** Whether every slot is taken. */
    public boolean full() {
        return freeCount == 0;
    }

    /** Whether the transport failed: every command outstanding then, and every later one, fails. */
    public boolean failed() {
        return failure != null;
    }

    /** What failed first, for messages; null while nothing has. */
    public String failure() {
        return failure;
    }

    /** Commands submitted and not yet reported by {@link #poll}. */
    public int outstanding() {
        return depth - freeCount;
    }

    /**
     * Sends {@code command}. Data the controller reads goes in the capsule when it fits the
     * controller's in-capsule size and the command allows it; otherwise the buffer gets a key.
     *
     * @return the command id, which {@link #poll} reports it by
     * @throws IllegalStateException when every slot is taken
     * @throws NvmeException with {@link NvmeException#TRANSPORT} when the queue has failed
     */
    public int submit(Command command) {
        if (failed()) {
            throw new NvmeException(NvmeException.TRANSPORT, "queue " + qid + " has failed");
        }
        if (freeCount == 0) {
            throw new IllegalStateException("queue " + qid + " has " + depth + " commands outstanding");
        }
        int slot = free[--freeCount];
        long base = (long) slot * capsuleBytes;
        MemorySegment capsule = capsules.memory();
        command.sqe.copyTo(capsule, base);
        sqe.wrap(capsule, base).commandId(slot).flags(command.flags);
        int length = command.data == null ? 0 : (int) command.data.byteSize();
        int sglLength = command.declaredSglLength >= 0 ? command.declaredSglLength : length;
        int sendBytes = Sqe.BYTES;
        keyed[slot] = false;
        if (length > 0 && command.toController && command.allowInCapsule && length <= inCapsuleBytes) {
            MemorySegment.copy(command.data, 0, capsule, base + Sqe.BYTES, length);
            sqe.inCapsuleSgl(command.declaredSglOffset, sglLength);
            sendBytes += length;
        } else if (length > 0) {
            key[slot] = keys.grant(slot, command.data, length, !command.toController, qp);
            keyed[slot] = keys.invalidates();
            sqe.keyedSgl(keys.address(slot), sglLength, key[slot], keys.invalidates());
        } else {
            sqe.keyedSgl(0, 0, 0, false);
        }
        if (command.capsuleLength >= 0) {
            sendBytes = command.capsuleLength;
        }
        busy[slot] = true;
        sendPending[slot] = true;
        responsePending[slot] = true;
        invalidationPending[slot] = false;
        remoteInvalidated[slot] = false;
        localInvalidated[slot] = false;
        sends[slot].send().buffer(capsules, base, sendBytes);
        qp.postSend(sends[slot]);
        return slot;
    }

    /**
     * Takes what completed and reports the commands that ended, at most {@code out.length}.
     *
     * @return how many of {@code out} were filled
     */
    public int poll(Completion[] out) {
        int reported = 0;
        int n = failed() ? 0 : cq.poll(completions, completions.length);
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = completions[i];
            int slot = (int) wc.wrId();
            long kind = wc.wrId() & KIND_MASK;
            if (wc.status() != WcStatus.SUCCESS) {
                fail(wc.status() + " on " + (kind == KIND_RECEIVE ? "a receive" : kind == KIND_SEND ? "a capsule send"
                        : kind == KIND_INVALIDATE ? "a local invalidate" : "a key grant") + " of slot " + slot);
                continue;
            }
            if (kind == KIND_RECEIVE) {
                onResponse(slot, wc);
            } else if (kind == KIND_SEND) {
                sendPending[slot] = false;
            } else if (kind == KIND_INVALIDATE) {
                invalidationPending[slot] = false;
            }
        }
        for (int slot = 0; slot < depth && reported < out.length; slot++) {
            if (!busy[slot]) {
                continue;
            }
            if (failed()) {
                out[reported++].set(slot, NvmeException.TRANSPORT, 0, false, false);
                busy[slot] = false;
                free[freeCount++] = slot;
            } else if (!sendPending[slot] && !responsePending[slot] && !invalidationPending[slot]) {
                out[reported++].set(slot, status[slot], result[slot], remoteInvalidated[slot], localInvalidated[slot]);
                busy[slot] = false;
                free[freeCount++] = slot;
            }
        }
        return reported;
    }

    private void onResponse(int receive, WorkCompletion wc) {
        if (wc.byteLength() < Cqe.BYTES) {
            // Not a whole completion entry: what the buffer holds is an older response's.
            qp.postRecv(receives[receive]);
            fail("a response of " + wc.byteLength() + " bytes, shorter than a completion entry");
            return;
        }
        cqe.wrap(responses.memory(), (long) receive * Cqe.BYTES);
        int slot = cqe.commandId();
        int answer = cqe.status();
        long value = cqe.result();
        qp.postRecv(receives[receive]);
        if (slot >= depth || !busy[slot] || !responsePending[slot]) {
            // A response for no command outstanding: the controller is confused; the queue cannot be trusted.
            fail("a response for command " + slot + ", which is not outstanding");
            return;
        }
        boolean invalidatedByPeer = wc.opcode() == WcOpcode.RECV && wc.withInv();
        if (invalidatedByPeer && (!keyed[slot] || wc.invalidatedRkey() != key[slot])) {
            // The controller invalidated a key this command did not give it (another
            // command's, perhaps mid-transfer): the queue cannot be trusted (as Linux's host).
            fail(String.format("the response to command %d invalidated key 0x%x, which the command did not give",
                    slot, wc.invalidatedRkey()));
            return;
        }
        responsePending[slot] = false;
        status[slot] = answer;
        result[slot] = value;
        if (keyed[slot]) {
            if (invalidatedByPeer) {
                remoteInvalidated[slot] = true;
            } else if (postLocalInvalidate(slot)) {
                localInvalidated[slot] = true;
                invalidationPending[slot] = true;
            } else {
                remoteInvalidated[slot] = true;
            }
        }
    }

    /**
     * Posts LOCAL_INV of the slot's key; false when the provider refuses it with EINVAL because
     * the key is no longer valid. The ibverbs provider tracks its type 2 windows: on the
     * kernel's rxe the receive reports the peer's invalidation in a flag libibverbs reads as
     * another (a finding of the suite), so the completion above did not say WITH_INV, yet the
     * provider saw it and refuses the LOCAL_INV that would fault rxe.
     */
    private boolean postLocalInvalidate(int slot) {
        invalidations[slot].localInvalidate(key[slot]);
        try {
            qp.postSend(invalidations[slot]);
            return true;
        } catch (VerbsException e) {
            if (e.error() == Errno.EINVAL) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Submits {@code command} and waits for it, on a queue with nothing else outstanding
     * (what else completes meanwhile is not reported): for admin commands and tools.
     *
     * @throws NvmeException when it ends with a status other than success, or the queue fails
     */
    public Completion execute(Command command, Duration timeout) {
        int cid = submit(command);
        Completion[] one = {new Completion()};
        Completion found = null;
        long deadline = System.nanoTime() + timeout.toNanos();
        Completion[] batch = new Completion[depth];
        for (int i = 0; i < depth; i++) {
            batch[i] = new Completion();
        }
        while (found == null) {
            int n = poll(batch);
            for (int i = 0; i < n; i++) {
                if (batch[i].commandId() == cid) {
                    one[0].set(cid, batch[i].status(), batch[i].result(), batch[i].invalidatedByController(),
                            batch[i].invalidatedLocally());
                    found = one[0];
                }
            }
            if (found == null) {
                if (System.nanoTime() - deadline > 0) {
                    fail("no response within " + timeout);
                    throw new NvmeException(NvmeException.TRANSPORT, "queue " + qid + ": no response within " + timeout);
                }
                Thread.onSpinWait();
            }
        }
        if (found.status() != 0) {
            throw new NvmeException(found.status(), "queue " + qid + " command " + cid
                    + (found.status() < 0 ? ": no response, the queue failed (" + failure + ")" : ""));
        }
        return found;
    }

    /** Fails the queue; the first reason is the one {@link #failure()} keeps. */
    private void fail(String why) {
        if (failure == null) {
            failure = why;
        }
    }

    QueuePair queuePair() {
        return qp;
    }

    @Override
    public void close() {
        try {
            id.disconnect();
        } catch (RuntimeException alreadyGone) {
            // The controller ended the connection first.
        }
        id.close();
        release();
    }

    /** Frees what the constructor made, as far as it got. */
    private void release() {
        if (qp != null) {
            qp.close();
        }
        if (cq != null) {
            cq.close();
        }
        if (keys != null) {
            keys.close();
        }
        if (rings != null) {
            rings.close();
        }
    }

}
