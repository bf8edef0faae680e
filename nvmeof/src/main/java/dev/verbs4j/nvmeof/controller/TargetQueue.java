package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.RegisteredArena;
import dev.verbs4j.Transport;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * One NVMe queue over one RC queue pair: capsules arrive in posted receives, each is copied
 * into a free {@link CommandSlot} (its in-capsule data too) and its receive posted again at
 * once; data moves by RDMA READ (host to controller) or RDMA WRITE (controller to host)
 * through the host's keyed SGL; the response goes by SEND, with invalidate when the host
 * asked. A host may have {@code depth} commands outstanding; twice as many slots cover the
 * commands whose responses the host has while their SENDs have not completed here, and a
 * capsule that finds none free waits in its receive buffer until one is.
 * Every RDMA failure other than a flush ends the queue, as a transport error must.
 * <p>
 * On iWARP the data's RDMA WRITE is signaled too, though nothing waits for its completion:
 * the kernel's siw sends a non-signaled request of a page or more straight out of its
 * buffer's pages, which TCP holds after the response's SEND has completed, so a slot reused
 * then would change a read's data on its way to the host.
 */
final class TargetQueue {
    private static final long KIND_RECEIVE = 1L << 32;
    private static final long KIND_READ = 2L << 32;
    private static final long KIND_SEND = 3L << 32;
    /** The data of a read, to the host; its completion, when signaled, asks for nothing. */
    private static final long KIND_WRITE = 4L << 32;
    private static final long KIND_MASK = 0xffL << 32;

    final Target target;
    final CmId id;
    final int qid;
    final int depth;
    final int capsuleBytes;
    private final RegisteredArena registered;
    private final Arena plain = Arena.ofShared();
    private CompletionQueue cq;
    QueuePair qp;
    private MemoryRegion receives;
    private MemorySegment receiveMemory;
    private ReceiveWorkRequest[] receiveRequests;
    private CommandSlot[] slots;
    private int[] free;
    private int freeCount;
    /** Capsules that came while every slot was busy, oldest first: receive indices and lengths. */
    private final int[] waiting;
    private final int[] waitingBytes;
    private int waitingHead;
    private int waitingCount;
    private final WorkCompletion[] completions = new WorkCompletion[32];
    /** Whether the data's RDMA WRITE is signaled: on iWARP (see above). */
    private final boolean signalDataWrites;
    private int sqHead;
    Controller controller;
    boolean connected;
    private boolean closed;
    /** Capsules too short to hold a command, and other transport-level faults seen. */
    long malformedCapsules;

    TargetQueue(Target target, CmId id, ProtectionDomain pd, int qid, int depth, int inCapsuleBytes, int maxTransferBytes) {
        this.target = target;
        this.id = id;
        this.qid = qid;
        this.depth = depth;
        this.capsuleBytes = Sqe.BYTES + inCapsuleBytes;
        int slotCount = depth * 2;
        this.waiting = new int[depth];
        this.waitingBytes = new int[depth];
        this.registered = RegisteredArena.of(pd, EnumSet.of(Access.LOCAL_WRITE));
        this.signalDataWrites = pd.context().device().transport() == Transport.IWARP;
        try {
            this.cq = pd.context().createCq(depth + slotCount * 2 + 1);
            this.qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(slotCount * 2, depth, 1, 1, 0));
            this.receives = registered.allocateRegion((long) capsuleBytes * depth);
            this.receiveMemory = receives.memory();
            this.receiveRequests = new ReceiveWorkRequest[depth];
            for (int i = 0; i < depth; i++) {
                receiveRequests[i] = new ReceiveWorkRequest(1).wrId(KIND_RECEIVE | i)
                        .buffer(receives, (long) i * capsuleBytes, capsuleBytes);
            }
            MemoryRegion responses = registered.allocateRegion((long) slotCount * 16);
            this.slots = new CommandSlot[slotCount];
            this.free = new int[slotCount];
            for (int i = 0; i < slotCount; i++) {
                MemoryRegion data = registered.allocateRegion(maxTransferBytes);
                CommandSlot slot = new CommandSlot(i, plain.allocate(Sqe.BYTES, 8), data,
                        responses.memory().asSlice(i * 16L, 16));
                slot.respond.wrId(KIND_SEND | i).signaled(true).buffer(responses, i * 16L, 16);
                slots[i] = slot;
                free[freeCount++] = i;
            }
            for (int i = 0; i < completions.length; i++) {
                completions[i] = new WorkCompletion();
            }
            id.attachQp(qp);
            for (ReceiveWorkRequest r : receiveRequests) {
                qp.postRecv(r);
            }
        } catch (RuntimeException e) {
            release();
            throw e;
        }
    }

    /** Handles what completed; returns how many completions it took. */
    int poll() {
        if (closed) {
            return 0;
        }
        int n = cq.poll(completions, completions.length);
        for (int i = 0; i < n && !closed; i++) {
            WorkCompletion wc = completions[i];
            long kind = wc.wrId() & KIND_MASK;
            int index = (int) wc.wrId();
            if (wc.status() != WcStatus.SUCCESS) {
                if (wc.status() != WcStatus.WR_FLUSH_ERR) {
                    fail();
                }
                continue;
            }
            if (kind == KIND_RECEIVE) {
                onCapsule(index, wc.byteLength());
            } else if (kind == KIND_READ) {
                execute(slots[index]);
            } else if (kind == KIND_SEND) {
                release(slots[index]);
            }
        }
        return n;
    }

    private void onCapsule(int receiveIndex, int bytes) {
        if (bytes < Sqe.BYTES) {
            // No command id to answer: the capsule is not a command.
            malformedCapsules++;
            fail();
            return;
        }
        if (freeCount == 0 || waitingCount > 0) {
            // Every slot waits for its response's SEND to complete (the host's ACKs may come in
            // batches). The capsule waits in its receive buffer, which is not posted again until
            // it is taken: the host, which has it outstanding, cannot send into that buffer.
            int tail = (waitingHead + waitingCount) % waiting.length;
            waiting[tail] = receiveIndex;
            waitingBytes[tail] = bytes;
            waitingCount++;
            return;
        }
        take(receiveIndex, bytes);
    }

    private void take(int receiveIndex, int bytes) {
        long capsule = (long) receiveIndex * capsuleBytes;
        CommandSlot slot = slots[free[--freeCount]];
        slot.reset();
        MemorySegment.copy(receiveMemory, capsule, slot.command, 0, Sqe.BYTES);
        sqHead = (sqHead + 1) % depth;
        int status = prepare(slot, capsule, bytes);
        qp.postRecv(receiveRequests[receiveIndex]);
        if (status != NvmeStatus.SUCCESS) {
            complete(slot, status, 0);
        } else if (slot.direction == CommandSlot.TO_CONTROLLER && slot.keyed && slot.length > 0) {
            slot.transfer.wrId(KIND_READ | slot.index).signaled(true).rdmaRead(slot.remoteAddress, slot.remoteKey)
                    .buffer(slot.dataRegion, 0, slot.length);
            qp.postSend(slot.transfer);
        } else {
            execute(slot);
        }
    }

    /**
     * Checks the command and its SGL against what this queue can take and copies in-capsule
     * data into the slot; the capsule starts {@code capsule} bytes into the receive buffers. Returns the status that ends the command now, or success.
     */
    private int prepare(CommandSlot slot, long capsule, int bytes) {
        Sqe sqe = slot.sqe;
        // SGLs for data, and no half of a fused pair: the other half would run alone (as nvmet, Invalid Field).
        if ((sqe.flags() & (Sqe.FLAGS_PSDT_MASK | Sqe.FLAGS_FUSE_MASK)) != Sqe.FLAGS_PSDT_SGL) {
            return NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
        }
        int sglLength;
        int type = sqe.sglType();
        if (type == Sqe.SGL_KEYED_DATA_BLOCK || type == Sqe.SGL_KEYED_DATA_BLOCK_INVALIDATE) {
            slot.keyed = true;
            slot.remoteAddress = sqe.sglAddress();
            slot.remoteKey = sqe.keyedKey();
            sglLength = sqe.keyedLength();
            slot.invalidate = type == Sqe.SGL_KEYED_DATA_BLOCK_INVALIDATE && sglLength > 0;
        } else if (type == Sqe.SGL_DATA_BLOCK_OFFSET) {
            sglLength = sqe.blockLength();
            long offset = sqe.sglAddress();
            int inCapsule = bytes - Sqe.BYTES;
            if (offset < 0 || sglLength < 0 || offset > inCapsule || sglLength > inCapsule - offset) {
                return NvmeStatus.SGL_INVALID_OFFSET | NvmeStatus.DNR;
            }
        } else {
            return NvmeStatus.SGL_INVALID_TYPE | NvmeStatus.DNR;
        }
        int status = CommandSet.prepare(this, slot);
        if (status != NvmeStatus.SUCCESS) {
            return status;
        }
        if (slot.direction == CommandSlot.NO_DATA) {
            slot.length = 0;
            return NvmeStatus.SUCCESS;
        }
        if (sglLength != slot.length || sglLength > slot.data.segment().byteSize()) {
            return NvmeStatus.SGL_INVALID_DATA | NvmeStatus.DNR;
        }
        if (!slot.keyed) {
            if (slot.direction != CommandSlot.TO_CONTROLLER) {
                return NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
            }
            MemorySegment.copy(receiveMemory, capsule + Sqe.BYTES + sqe.sglAddress(), slot.data.segment(), 0, sglLength);
        }
        return NvmeStatus.SUCCESS;
    }

    private void execute(CommandSlot slot) {
        if (CommandSet.execute(this, slot)) {
            complete(slot, slot.status, slot.result);
        } else {
            release(slot);
        }
    }

    /** Sends the response, after the data when the command read some and succeeded. */
    void complete(CommandSlot slot, int status, long result) {
        slot.cqe.write(result, sqHead, qid, slot.sqe.commandId(), status);
        if (status == NvmeStatus.SUCCESS && slot.direction == CommandSlot.TO_HOST && slot.length > 0) {
            slot.transfer.wrId(KIND_WRITE | slot.index).signaled(signalDataWrites)
                    .rdmaWrite(slot.remoteAddress, slot.remoteKey)
                    .buffer(slot.dataRegion, 0, slot.length);
            qp.postSend(slot.transfer);
        }
        if (slot.invalidate && target.options().remoteInvalidate()) {
            slot.respond.sendWithInv(slot.remoteKey);
        } else {
            slot.respond.send();
        }
        qp.postSend(slot.respond);
    }

    private void release(CommandSlot slot) {
        free[freeCount++] = slot.index;
        while (waitingCount > 0 && freeCount > 0 && !closed) {
            int receiveIndex = waiting[waitingHead];
            int bytes = waitingBytes[waitingHead];
            waitingHead = (waitingHead + 1) % waiting.length;
            waitingCount--;
            take(receiveIndex, bytes);
        }
    }

    /** Ends the queue for a transport fault: the host sees the connection go. */
    void fail() {
        target.dropQueue(this);
    }

    boolean closed() {
        return closed;
    }

    /** Disconnects and frees everything; safe to call more than once. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            id.disconnect();
        } catch (RuntimeException alreadyGone) {
            // The peer disconnected first, or the connection never completed.
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
        registered.close();
        plain.close();
    }
}
