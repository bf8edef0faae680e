package dev.verbs4j.softroce.engine;

import dev.verbs4j.Access;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.WcFlag;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.softroce.memory.KeyCheck;
import dev.verbs4j.softroce.memory.MemoryTable;
import dev.verbs4j.softroce.memory.Region;
import dev.verbs4j.softroce.wire.Aeth;
import dev.verbs4j.softroce.wire.Feth;
import dev.verbs4j.softroce.wire.OpcodeTable;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.PacketView;
import dev.verbs4j.softroce.wire.Psn;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The receive side of a queue pair: executes request packets in PSN order and answers
 * them. The checks run in the order of the kernel rxe's responder (PSN, opcode sequence,
 * QP access, resources, length, key) and each failure ends as the rxe does: a sequence
 * error NAKs once and drops until the gap closes, a missing receive is an RNR NAK, a
 * duplicate is re-acknowledged or replayed from the responder resources, and a class C
 * error NAKs and moves the QP to the error state.
 */
final class Responder {
    private static final int ACK = Aeth.ACK_UNLIMITED_CREDIT;
    private static final int REMOTE_RIGHTS_READ = Access.REMOTE_READ.value();
    private static final int REMOTE_RIGHTS_WRITE = Access.REMOTE_WRITE.value();
    private static final int REMOTE_RIGHTS_ATOMIC = Access.REMOTE_ATOMIC.value();

    private final QpEngine qp;
    int ePsn;
    private int msn;
    private boolean nakSent;
    /** The opcode of the last packet executed, for the sequence check; -1 between messages. */
    private int lastOpcode = -1;
    private boolean dropMessage;

    private boolean receiveActive;
    private long receiveWrId;
    private final ScatterGatherList receiveSges;
    private long receiveOffset;

    private int writeRkey;
    /** The remote address of the message's next byte, as its RETH counts it. */
    private long writeVa;
    private long writeRemaining;
    private long writeLength;

    private final ResponderResource[] resources;
    private Region atomicRegion;
    private long atomicOffset;
    private int resourceHead;

    /**
     * Read responses still to send, in PSN order: a ring of (rkey, address, length, first
     * PSN), the head one partly sent ({@code streamed} bytes). They go out
     * {@link #READ_PACKETS_PER_STEP} at a time per engine step ({@link #continueReads}), as
     * many as a requester sends of a write, so that a burst of large reads takes turns with
     * the other queue pairs. Any other request first sends what is pending, which keeps
     * responses in PSN order.
     */
    static final int READ_PACKETS_PER_STEP = Requester.PACKETS_PER_STEP;
    private final int[] pendingRkey;
    private final long[] pendingVa;
    private final long[] pendingLength;
    private final int[] pendingPsn;
    private int pendingHead;
    private int pendingCount;
    private long streamed;

    /**
     * A positive acknowledgement held back until the device's next step
     * ({@link DeviceEngine#deferAck}): the PSN and MSN it acknowledges. Acknowledgements
     * coalesce (IBTA 9.7.5.1: one acknowledges every request before it), so a later one
     * replaces it, and any other response of this queue pair sends it first, which keeps
     * responses in PSN order. Held back, it leaves after whatever the application posts in
     * answer to the request, rather than in front of it.
     */
    private boolean ackHeld;
    private int heldAckPsn;
    private int heldAckMsn;
    /** The PSN after the last one an acknowledgement went out for: what a held one would be the first to cover. */
    private int unackedPsn;
    /**
     * How many packets one held acknowledgement may cover before it goes at once: a quarter
     * of the requester's window ({@link Requester#MAX_UNACKED_PSNS}, the kernel rxe's too),
     * so a stream of large messages keeps its window open while small ones coalesce.
     */
    static final int HOLD_AT_MOST_PACKETS = Requester.MAX_UNACKED_PSNS / 4;

    Responder(QpEngine qp) {
        this.qp = qp;
        this.receiveSges = new ScatterGatherList(Math.max(1, qp.rq.maxSge()));
        this.resources = new ResponderResource[Math.max(1, qp.device.limits().maxQpRdAtom())];
        for (int i = 0; i < resources.length; i++) {
            resources[i] = new ResponderResource();
        }
        int pendingCapacity = resources.length + 1;
        this.pendingRkey = new int[pendingCapacity];
        this.pendingVa = new long[pendingCapacity];
        this.pendingLength = new long[pendingCapacity];
        this.pendingPsn = new int[pendingCapacity];
    }

    void reset(int firstPsn) {
        ePsn = firstPsn;
        msn = 0;
        nakSent = false;
        lastOpcode = -1;
        dropMessage = false;
        receiveActive = false;
        writeRemaining = 0;
        pendingCount = 0;
        streamed = 0;
        ackHeld = false;
        unackedPsn = firstPsn;
        for (ResponderResource r : resources) {
            r.type = ResponderResource.FREE;
        }
    }

    /** In the error state: receives of this QP (not of an SRQ) complete with WR_FLUSH_ERR. */
    int flushReceives() {
        int n = 0;
        if (receiveActive) {
            receiveActive = false;
            qp.recvCq.push(receiveWrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, qp.qpn, 0, 0, 0, true);
            n++;
        }
        if (qp.sharedRq) {
            return n;
        }
        RecvQueue rq = qp.rq;
        while (!rq.isEmpty()) {
            qp.recvCq.push(rq.headWrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, qp.qpn, 0, 0, 0, true);
            rq.advance();
            n++;
        }
        return n;
    }

    /** Handles a request packet addressed to this QP. */
    void onRequest(PacketView p, long nowNs) {
        QpState s = qp.state;
        if (s == QpState.RESET || s == QpState.INIT || s == QpState.ERR) {
            qp.counters.increment(Counters.DROP_QP_STATE);
            return;
        }
        int opcode = p.opcode();
        if (!transportMatches(opcode)) {
            qp.counters.increment(Counters.DROP_OPCODE_SEQUENCE);
            return;
        }
        if (qp.type == QpType.UD) {
            udReceive(p);
            return;
        }
        int psn = p.bth().psn();
        if (pendingCount > 0 && (psn != ePsn || !p.has(OpcodeTable.READ))) {
            // Whatever this packet draws (an acknowledgement, a NAK, a response, a replay)
            // must follow the read responses before it; only a next read may queue behind them.
            sendPendingReads();
        }
        if (qp.type == QpType.RC) {
            int cmp = Psn.compare(psn, ePsn);
            if (cmp > 0) {
                qp.counters.increment(Counters.OUT_OF_SEQUENCE);
                if (!nakSent) {
                    nakSent = true;
                    sendNak(Aeth.NAK_PSN_SEQUENCE_ERROR, ePsn);
                }
                return;
            }
            if (cmp < 0) {
                qp.counters.increment(Counters.DUPLICATES);
                duplicate(p, psn);
                return;
            }
            nakSent = false;
        } else if (dropMessage || psn != ePsn) {
            // UC: a gap loses the message in progress; a new message may start at any PSN.
            if (!p.has(OpcodeTable.FIRST)) {
                dropMessage = true;
                ePsn = Psn.next(psn);
                qp.counters.increment(Counters.OUT_OF_SEQUENCE);
                return;
            }
            dropMessage = false;
            abandonMessage();
        }
        if (!sequenceValid(opcode)) {
            invalidRequest(psn, Counters.DROP_OPCODE_SEQUENCE);
            return;
        }
        if (!accessAllowed(p)) {
            invalidRequest(psn, Counters.DROP_ACCESS);
            return;
        }
        boolean readLike = OpcodeTable.hasAny(opcode, OpcodeTable.READ | OpcodeTable.ATOMIC | OpcodeTable.ATOMIC_WRITE
                | OpcodeTable.FLUSH);
        if (readLike && qp.maxDestRdAtomic == 0) {
            // rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ: no responder resources at all.
            classC(Aeth.NAK_INVALID_REQUEST, psn);
            return;
        }
        if (!lengthValid(p)) {
            invalidRequest(psn, Counters.DROP_LENGTH);
            return;
        }
        if (p.has(OpcodeTable.SEND)) {
            executeSend(p, psn);
        } else if (p.has(OpcodeTable.WRITE)) {
            executeWrite(p, psn);
        } else if (p.has(OpcodeTable.READ)) {
            executeRead(p, psn);
        } else if (p.has(OpcodeTable.ATOMIC)) {
            executeAtomic(p, psn);
        } else if (p.has(OpcodeTable.ATOMIC_WRITE)) {
            executeAtomicWrite(p, psn);
        } else if (p.has(OpcodeTable.FLUSH)) {
            executeFlush(p, psn);
        }
    }

    private boolean transportMatches(int opcode) {
        int transport = opcode & Opcodes.TRANSPORT_MASK;
        return switch (qp.type) {
            case RC -> transport == Opcodes.RC;
            case UC -> transport == Opcodes.UC;
            case UD -> transport == Opcodes.UD;
        };
    }

    /** IBTA 9.8.3.x: a MIDDLE or LAST must continue a FIRST of the same kind, and nothing may interrupt it. */
    private boolean sequenceValid(int opcode) {
        int flags = OpcodeTable.flags(opcode);
        boolean inSend = lastOpcode >= 0 && OpcodeTable.has(lastOpcode, OpcodeTable.SEND) && !OpcodeTable.has(lastOpcode, OpcodeTable.LAST);
        boolean inWrite = lastOpcode >= 0 && OpcodeTable.has(lastOpcode, OpcodeTable.WRITE) && !OpcodeTable.has(lastOpcode, OpcodeTable.LAST);
        boolean continues = (flags & OpcodeTable.FIRST) == 0 && (flags & (OpcodeTable.MIDDLE | OpcodeTable.LAST)) != 0
                && (flags & (OpcodeTable.SEND | OpcodeTable.WRITE)) != 0;
        if (inSend) {
            return continues && (flags & OpcodeTable.SEND) != 0;
        }
        if (inWrite) {
            return continues && (flags & OpcodeTable.WRITE) != 0;
        }
        return !continues;
    }

    /** The QP's own access flags (rxe {@code check_op_valid}). */
    private boolean accessAllowed(PacketView p) {
        int access = qp.accessMask;
        if (p.has(OpcodeTable.READ) && (access & REMOTE_RIGHTS_READ) == 0) {
            return false;
        }
        if ((p.has(OpcodeTable.WRITE) || p.has(OpcodeTable.ATOMIC_WRITE)) && (access & REMOTE_RIGHTS_WRITE) == 0) {
            return false;
        }
        if (p.has(OpcodeTable.ATOMIC) && (access & REMOTE_RIGHTS_ATOMIC) == 0) {
            return false;
        }
        return true;
    }

    private static int flushRights(int placementType) {
        int rights = 0;
        if ((placementType & Feth.PLACEMENT_GLOBAL) != 0) {
            rights |= Access.FLUSH_GLOBAL.value();
        }
        if ((placementType & Feth.PLACEMENT_PERSISTENT) != 0) {
            rights |= Access.FLUSH_PERSISTENT.value();
        }
        return rights;
    }

    /** Packet sizes against the path MTU (rxe {@code check_length}). */
    private boolean lengthValid(PacketView p) {
        int payload = p.payloadLength();
        int mtu = qp.mtu;
        int flags = p.flags();
        boolean first = (flags & OpcodeTable.FIRST) != 0;
        boolean last = (flags & OpcodeTable.LAST) != 0;
        if (p.has(OpcodeTable.ATOMIC_WRITE)) {
            // oA19-28: exactly 8 bytes, announced and carried.
            return payload == 8 && Integer.toUnsignedLong(p.reth().dmaLength()) == 8;
        }
        if ((flags & OpcodeTable.HAS_PAYLOAD) == 0) {
            return true;
        }
        if (first && last) {
            return payload <= mtu;
        }
        if (first || (flags & OpcodeTable.MIDDLE) != 0) {
            return payload == mtu;
        }
        return !last || (payload > 0 && payload <= mtu);
    }

    // ---- SEND -----------------------------------------------------------------------------

    private void executeSend(PacketView p, int psn) {
        boolean first = p.has(OpcodeTable.FIRST);
        boolean last = p.has(OpcodeTable.LAST);
        if (first && !takeReceive()) {
            rnr(psn);
            return;
        }
        int scattered = scatter(p.segment(), p.payloadOffset(), p.payloadLength());
        if (scattered == BAD_RECEIVE_KEY) {
            receiveProtectionError(psn);
            return;
        }
        if (scattered != FITS) {
            if (qp.type == QpType.RC) {
                // The message does not fit the receive: the receive completes with a local
                // length error and the sender is told its request was invalid (class C).
                completeReceive(WcStatus.LOC_LEN_ERR, WcOpcode.RECV, 0, 0, 0, true);
                classC(Aeth.NAK_INVALID_REQUEST, psn);
            } else {
                dropMessage = true;
                abandonMessage();
                ePsn = Psn.next(psn);
            }
            return;
        }
        advance(p, psn);
        if (last) {
            int flags = WcFlag.GRH.value();
            int imm = 0;
            WcStatus status = WcStatus.SUCCESS;
            if (p.has(OpcodeTable.IMMEDIATE)) {
                flags |= WcFlag.WITH_IMM.value();
                imm = p.immDt().immData();
            }
            if (p.has(OpcodeTable.INVALIDATE)) {
                int rkey = p.ieth().rkey();
                if (qp.device.memory().invalidate(rkey, qp.pdHandle) == KeyCheck.OK) {
                    flags |= WcFlag.WITH_INV.value();
                    imm = rkey;
                } else {
                    // As the kernel rxe does (class J): the receive fails and the QP errs,
                    // while the sender's request is acknowledged.
                    status = WcStatus.REM_INV_REQ_ERR;
                }
            }
            msn++;
            completeReceive(status, WcOpcode.RECV, (int) receiveOffset, flags, imm, p.bth().solicited());
            acknowledgeIfAsked(p, psn);
            if (status != WcStatus.SUCCESS) {
                qp.enterError(null);
            }
            return;
        }
        acknowledgeIfAsked(p, psn);
    }

    private boolean takeReceive() {
        if (receiveActive) {
            return true;
        }
        RecvQueue rq = qp.rq;
        if (rq.isEmpty()) {
            return false;
        }
        receiveWrId = rq.headWrId();
        receiveSges.copyFrom(rq.headSges());
        rq.advance();
        if (qp.sharedRq && rq.limitCrossed()) {
            qp.device.srqLimitReached(rq);
        }
        receiveActive = true;
        receiveOffset = 0;
        return true;
    }

    private void completeReceive(WcStatus status, WcOpcode opcode, int byteLength, int flags, int immOrRkey, boolean solicited) {
        receiveActive = false;
        if (!qp.recvCq.push(receiveWrId, status, opcode, byteLength, qp.qpn, 0, flags, immOrRkey, solicited)) {
            qp.device.cqOverflow(qp.recvCq);
        }
    }

    /** What {@link #scatter} did: placed every byte, ran out of room, or met a bad local key. */
    private static final int FITS = 0;
    private static final int TOO_LONG = 1;
    private static final int BAD_RECEIVE_KEY = 2;

    /** Copies received bytes into the active receive. @return {@link #FITS}, {@link #TOO_LONG} or {@link #BAD_RECEIVE_KEY} */
    private int scatter(MemorySegment packet, long from, int length) {
        int placed = LocalData.scatter(qp.device.memory(), qp.pdHandle, receiveSges, receiveOffset, packet, from, length);
        if (placed < 0) {
            return BAD_RECEIVE_KEY;
        }
        receiveOffset += placed;
        return placed == length ? FITS : TOO_LONG;
    }

    /**
     * A receive whose scatter list names memory its keys do not grant (a bad lkey, another
     * PD's region, no LOCAL_WRITE, freed memory): class A, on every transport. The receive
     * completes with IBV_WC_LOC_PROT_ERR, the status for a local key that is not valid for
     * the operation; an RC sender is told with a remote operational error NAK, and the QP
     * enters the error state. The kernel rxe completes the receive with IBV_WC_LOC_QP_OP_ERR
     * (a malformed receive) and NAKs the same.
     */
    private void receiveProtectionError(int psn) {
        completeReceive(WcStatus.LOC_PROT_ERR, WcOpcode.RECV, 0, 0, 0, true);
        if (qp.type == QpType.RC) {
            sendNak(Aeth.NAK_REMOTE_OPERATIONAL_ERROR, psn);
        }
        qp.enterError(null);
    }

    // ---- WRITE ----------------------------------------------------------------------------

    private void executeWrite(PacketView p, int psn) {
        boolean first = p.has(OpcodeTable.FIRST);
        boolean last = p.has(OpcodeTable.LAST);
        boolean imm = p.has(OpcodeTable.IMMEDIATE);
        if (last && imm && !takeReceive()) {
            rnr(psn);
            return;
        }
        int payload = p.payloadLength();
        if (first) {
            long length = Integer.toUnsignedLong(p.reth().dmaLength());
            if (length > (1L << 31)) {
                invalidRequest(psn);
                return;
            }
            writeLength = length;
            writeRemaining = length;
            writeRkey = p.reth().rkey();
            writeVa = p.reth().va();
        }
        Region region = null;
        long offset = 0;
        if (writeRemaining > 0 && (first || payload > 0)) {
            // Every packet checks the key again, for the rest of the message, as rxe does:
            // between two packets the application may invalidate or deregister the target,
            // register its key again over other memory, or bind its window elsewhere.
            MemoryTable memory = qp.device.memory();
            if (memory.checkRemote(writeRkey, qp.pdHandle, qp.qpn, writeVa, writeRemaining, REMOTE_RIGHTS_WRITE) != KeyCheck.OK) {
                remoteAccessError(psn);
                return;
            }
            region = memory.region();
            offset = memory.offset();
        }
        if (payload > writeRemaining || (last && payload != writeRemaining)) {
            invalidRequest(psn);
            return;
        }
        if (payload > 0) {
            if (!region.copyIn(offset, p.segment(), p.payloadOffset(), payload)) {
                qp.device.memory().foundFreed(region);
                remoteAccessError(psn);
                return;
            }
            writeVa += payload;
            writeRemaining -= payload;
        }
        advance(p, psn);
        if (last) {
            msn++;
            if (imm) {
                completeReceive(WcStatus.SUCCESS, WcOpcode.RECV_RDMA_WITH_IMM, (int) writeLength,
                        WcFlag.GRH.value() | WcFlag.WITH_IMM.value(), p.immDt().immData(), p.bth().solicited());
            }
        }
        acknowledgeIfAsked(p, psn);
    }

    // ---- READ, ATOMIC, ATOMIC WRITE, FLUSH -----------------------------------------------------

    private void executeRead(PacketView p, int psn) {
        long length = Integer.toUnsignedLong(p.reth().dmaLength());
        if (length > (1L << 31)) {
            classC(Aeth.NAK_INVALID_REQUEST, psn);
            return;
        }
        long va = p.reth().va();
        int rkey = p.reth().rkey();
        if (length > 0 && qp.device.memory().checkRemote(rkey, qp.pdHandle, qp.qpn, va, length, REMOTE_RIGHTS_READ) != KeyCheck.OK) {
            remoteAccessError(psn);
            return;
        }
        int packets = (int) Math.max(1, (length + qp.mtu - 1) / qp.mtu);
        ResponderResource r = nextResource();
        r.set(ResponderResource.READ, psn, Psn.add(psn, packets - 1));
        r.va = va;
        r.rkey = rkey;
        r.length = length;
        msn++;
        ePsn = Psn.add(psn, packets);
        lastOpcode = -1;
        sendReadResponse(r, psn, va, length);
    }

    /**
     * Queues a read's response packets behind those pending ({@link #continueReads} sends
     * them); a full queue sends its oldest first.
     */
    private void sendReadResponse(ResponderResource r, int psn, long va, long length) {
        if (pendingCount == pendingPsn.length) {
            sendPending(Integer.MAX_VALUE, true);
        }
        int tail = (pendingHead + pendingCount) % pendingPsn.length;
        pendingRkey[tail] = r.rkey;
        pendingVa[tail] = va;
        pendingLength[tail] = length;
        pendingPsn[tail] = psn;
        pendingCount++;
    }

    /** Sends up to {@code budget} packets of the pending read responses; returns how many went out. */
    int continueReads(int budget) {
        return pendingCount == 0 ? 0 : sendPending(budget, false);
    }

    /** Sends every pending read response. */
    private void sendPendingReads() {
        if (pendingCount > 0) {
            sendPending(Integer.MAX_VALUE, false);
        }
    }

    /**
     * Sends pending read response packets, re-checking the key before each batch (the region
     * may have gone since the read was accepted, or on a replay): a failed check answers a
     * remote access error at that PSN and drops what is pending.
     *
     * @param headOnly stop after the oldest read is sent
     */
    private int sendPending(int budget, boolean headOnly) {
        sendHeldAck();
        int sent = 0;
        MemoryTable memory = qp.device.memory();
        while (pendingCount > 0 && sent < budget) {
            int h = pendingHead;
            long length = pendingLength[h];
            long remaining = length - streamed;
            int psn = Psn.add(pendingPsn[h], (int) (streamed / qp.mtu));
            Region region = null;
            long offset = 0;
            if (remaining > 0) {
                if (memory.checkRemote(pendingRkey[h], qp.pdHandle, qp.qpn, pendingVa[h] + streamed, remaining,
                        REMOTE_RIGHTS_READ) != KeyCheck.OK) {
                    pendingCount = 0;
                    streamed = 0;
                    remoteAccessError(psn);
                    return sent + 1;
                }
                region = memory.region();
                offset = memory.offset();
            }
            do {
                int payload = (int) Math.min(qp.mtu, remaining);
                boolean first = streamed == 0;
                boolean last = remaining <= qp.mtu;
                int opcode = first && last ? Opcodes.RC_RDMA_READ_RESPONSE_ONLY
                        : first ? Opcodes.RC_RDMA_READ_RESPONSE_FIRST
                        : last ? Opcodes.RC_RDMA_READ_RESPONSE_LAST : Opcodes.RC_RDMA_READ_RESPONSE_MIDDLE;
                PacketBuilder b = qp.device.startPacket(opcode);
                b.bth().init(opcode, false, false, 0, 0xFFFF, qp.destQpn, false, psn);
                if (OpcodeTable.has(opcode, OpcodeTable.HAS_AETH)) {
                    b.aeth().init(ACK, msn);
                }
                if (payload > 0 && !region.copyOut(offset, qp.device.txPacket(), b.payloadOffset(), payload)) {
                    memory.foundFreed(region);
                    pendingCount = 0;
                    streamed = 0;
                    remoteAccessError(psn);
                    return sent + 1;
                }
                qp.device.transmit(qp, payload);
                offset += payload;
                remaining -= payload;
                streamed += payload;
                psn = Psn.next(psn);
                sent++;
            } while (remaining > 0 && sent < budget);
            if (remaining > 0) {
                break;
            }
            pendingHead = (h + 1) % pendingPsn.length;
            pendingCount--;
            streamed = 0;
            if (headOnly) {
                break;
            }
        }
        return sent;
    }

    private void executeAtomic(PacketView p, int psn) {
        var eth = p.atomicEth();
        MemorySegment target = atomicTarget(eth.rkey(), eth.va(), REMOTE_RIGHTS_ATOMIC, psn);
        if (target == null) {
            return;
        }
        long original;
        try {
            if (p.opcode() == Opcodes.RC_COMPARE_SWAP) {
                original = (long) Atomics.LONG.compareAndExchange(target, atomicOffset, eth.compare(), eth.swapOrAdd());
            } else {
                original = (long) Atomics.LONG.getAndAdd(target, atomicOffset, eth.swapOrAdd());
            }
        } catch (IllegalStateException freedUnderTheAtomic) {
            memoryFreedUnder(psn);
            return;
        }
        executedReadLike(ResponderResource.ATOMIC, psn).originalValue = original;
        sendAtomicAck(psn, original);
    }

    /**
     * The segment holding the 8 bytes an atomic or ATOMIC WRITE targets (their offset in
     * {@link #atomicOffset}), or null after answering a bad key (remote access error) or a
     * misaligned address (invalid request: IBA A19.4.2, as the kernel rxe does).
     */
    private MemorySegment atomicTarget(int rkey, long va, int rights, int psn) {
        MemoryTable memory = qp.device.memory();
        if (memory.checkRemote(rkey, qp.pdHandle, qp.qpn, va, 8, rights) != KeyCheck.OK) {
            remoteAccessError(psn);
            return null;
        }
        atomicRegion = memory.region();
        MemorySegment target = memory.region().segmentAt(memory.offset());
        atomicOffset = memory.region().segmentOffset(memory.offset());
        if (((target.address() + atomicOffset) & 7) != 0) {
            classC(Aeth.NAK_INVALID_REQUEST, psn);
            return null;
        }
        return target;
    }

    /**
     * The memory of the atomic's region was freed by another thread after its key check:
     * the request fails as one naming an invalid key.
     */
    private void memoryFreedUnder(int psn) {
        qp.device.memory().foundFreed(atomicRegion);
        remoteAccessError(psn);
    }

    /** Records an executed read-like request for replay and moves past its PSN. */
    private ResponderResource executedReadLike(int kind, int psn) {
        ResponderResource r = nextResource();
        r.set(kind, psn, psn);
        msn++;
        ePsn = Psn.next(psn);
        lastOpcode = -1;
        return r;
    }

    private void executeAtomicWrite(PacketView p, int psn) {
        MemorySegment target = atomicTarget(p.reth().rkey(), p.reth().va(), REMOTE_RIGHTS_WRITE, psn);
        if (target == null) {
            return;
        }
        long value = p.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, p.payloadOffset());
        // One 64-bit release store, after everything this QP placed before it.
        try {
            Atomics.LONG.setRelease(target, atomicOffset, value);
        } catch (IllegalStateException freedUnderTheStore) {
            memoryFreedUnder(psn);
            return;
        }
        executedReadLike(ResponderResource.ATOMIC_WRITE, psn);
        sendReadResponseAck(psn);
    }

    private void executeFlush(PacketView p, int psn) {
        int placement = p.feth().placementType();
        int selectivity = p.feth().selectivityLevel();
        if (selectivity > Feth.SELECTIVITY_MEMORY_REGION || placement == 0 || placement > 3) {
            classC(Aeth.NAK_INVALID_REQUEST, psn);
            return;
        }
        MemoryTable memory = qp.device.memory();
        int rights = flushRights(placement);
        if ((qp.accessMask & rights) != rights) {
            // The QP does not permit this placement type: a remote access error (IBTA 1.5
            // MPE). The kernel rxe answers an invalid request NAK here instead.
            remoteAccessError(psn);
            return;
        }
        long length = Integer.toUnsignedLong(p.reth().dmaLength());
        int code = selectivity == Feth.SELECTIVITY_MEMORY_REGION
                ? memory.checkRemoteObject(p.reth().rkey(), qp.pdHandle, qp.qpn, rights)
                : memory.checkRemote(p.reth().rkey(), qp.pdHandle, qp.qpn, p.reth().va(), length, rights);
        if (code != KeyCheck.OK) {
            remoteAccessError(psn);
            return;
        }
        Region region = memory.region();
        long offset = selectivity == Feth.SELECTIVITY_MEMORY_REGION ? 0 : memory.offset();
        long span = selectivity == Feth.SELECTIVITY_MEMORY_REGION ? region.length() : length;
        // Every earlier request of this QP has been placed already (requests execute in
        // order); the fence makes that visible to every thread of this process.
        VarHandle.fullFence();
        if ((placement & Feth.PLACEMENT_PERSISTENT) != 0) {
            if (!region.force(offset, span)) {
                classC(Aeth.NAK_REMOTE_OPERATIONAL_ERROR, psn);
                return;
            }
        }
        executedReadLike(ResponderResource.FLUSH, psn);
        sendReadResponseAck(psn);
    }

    private ResponderResource nextResource() {
        int size = Math.max(1, Math.min(qp.maxDestRdAtomic, resources.length));
        ResponderResource r = resources[resourceHead % size];
        resourceHead = (resourceHead + 1) % size;
        return r;
    }

    // ---- duplicates -----------------------------------------------------------------------

    /** C9-105 and 9.7.5.1.2: sends and writes are acknowledged again, read-likes replayed. */
    private void duplicate(PacketView p, int psn) {
        if (p.has(OpcodeTable.SEND) || p.has(OpcodeTable.WRITE)) {
            sendAck(ACK, Psn.add(ePsn, -1));
            return;
        }
        ResponderResource r = findResource(psn);
        if (r == null || r.type != resourceKind(p)) {
            return; // class D: nothing (of this kind) to replay, drop
        }
        switch (r.type) {
            case ResponderResource.READ -> {
                long va = p.reth().va();
                long length = Integer.toUnsignedLong(p.reth().dmaLength());
                // A repeat may ask for part of what was read, no more; addresses are unsigned.
                if (p.reth().rkey() != r.rkey || length > r.length
                        || Long.compareUnsigned(va - r.va, r.length - length) > 0) {
                    return;
                }
                sendReadResponse(r, psn, va, length);
            }
            case ResponderResource.ATOMIC -> sendAtomicAck(psn, r.originalValue);
            case ResponderResource.ATOMIC_WRITE, ResponderResource.FLUSH -> sendReadResponseAck(psn);
            default -> {
            }
        }
    }

    private static int resourceKind(PacketView p) {
        if (p.has(OpcodeTable.READ)) {
            return ResponderResource.READ;
        }
        if (p.has(OpcodeTable.ATOMIC)) {
            return ResponderResource.ATOMIC;
        }
        if (p.has(OpcodeTable.ATOMIC_WRITE)) {
            return ResponderResource.ATOMIC_WRITE;
        }
        return p.has(OpcodeTable.FLUSH) ? ResponderResource.FLUSH : ResponderResource.FREE;
    }

    private ResponderResource findResource(int psn) {
        for (ResponderResource r : resources) {
            if (r.type != ResponderResource.FREE && Psn.compare(psn, r.firstPsn) >= 0 && Psn.compare(psn, r.lastPsn) <= 0) {
                return r;
            }
        }
        return null;
    }

    // ---- UD ---------------------------------------------------------------------------------

    private void udReceive(PacketView p) {
        if (p.deth().qkey() != qp.qkey) {
            qp.counters.increment(Counters.DROP_QKEY);
            return;
        }
        int payload = p.payloadLength();
        if (payload > qp.mtu || !takeReceive()) {
            qp.counters.increment(Counters.DROP_LENGTH);
            return;
        }
        MemorySegment grh = qp.device.receivedNetworkHeader();
        int scattered = scatter(grh, 0, 40);
        if (scattered == FITS) {
            scattered = scatter(p.segment(), p.payloadOffset(), payload);
        }
        if (scattered == BAD_RECEIVE_KEY) {
            receiveProtectionError(p.bth().psn());
            return;
        }
        if (scattered != FITS) {
            // Class D: the datagram is dropped and the receive stays posted for the next one.
            receiveActive = true;
            receiveOffset = 0;
            qp.counters.increment(Counters.DROP_LENGTH);
            return;
        }
        int flags = WcFlag.GRH.value();
        int imm = 0;
        if (p.has(OpcodeTable.IMMEDIATE)) {
            flags |= WcFlag.WITH_IMM.value();
            imm = p.immDt().immData();
        }
        receiveActive = false;
        if (!qp.recvCq.push(receiveWrId, WcStatus.SUCCESS, WcOpcode.RECV, 40 + payload, qp.qpn, p.deth().srcQp(), flags, imm,
                p.bth().solicited())) {
            qp.device.cqOverflow(qp.recvCq);
        }
    }

    // ---- acknowledgements and errors --------------------------------------------------------

    private void advance(PacketView p, int psn) {
        ePsn = Psn.next(psn);
        lastOpcode = p.has(OpcodeTable.LAST) ? -1 : p.opcode();
    }

    private void acknowledgeIfAsked(PacketView p, int psn) {
        if (qp.type == QpType.RC && p.bth().ackReq()) {
            if (Psn.distance(unackedPsn, psn) >= HOLD_AT_MOST_PACKETS - 1) {
                sendAck(ACK, psn);
                return;
            }
            if (!ackHeld) {
                ackHeld = true;
                qp.device.deferAck(qp);
            }
            heldAckPsn = psn;
            heldAckMsn = msn;
        }
    }

    /** Sends the acknowledgement held back, if there is one and the queue pair still answers. */
    void sendHeldAck() {
        if (ackHeld) {
            ackHeld = false;
            QpState s = qp.state;
            if (s != QpState.RESET && s != QpState.INIT && s != QpState.ERR) {
                transmitAck(ACK, heldAckPsn, heldAckMsn);
            }
        }
    }

    private void rnr(int psn) {
        if (qp.type == QpType.RC) {
            sendAck(Aeth.rnrNakSyndrome(qp.minRnrTimer), psn);
            qp.counters.increment(Counters.RNR_NAKS_SENT);
        } else {
            dropMessage = true;
            ePsn = Psn.next(psn);
        }
    }

    private void remoteAccessError(int psn) {
        if (qp.type == QpType.RC) {
            classC(Aeth.NAK_REMOTE_ACCESS_ERROR, psn);
        } else {
            dropMessage = true;
            abandonMessage();
            ePsn = Psn.next(psn);
            qp.counters.increment(Counters.DROP_OPCODE_SEQUENCE);
        }
    }

    /** A malformed request: class C on RC (NAK and error), a dropped message on UC (class D1). */
    private void invalidRequest(int psn) {
        invalidRequest(psn, Counters.DROP_OPCODE_SEQUENCE);
    }

    /** As {@link #invalidRequest(int)}, counting the packet under {@code reason}. */
    private void invalidRequest(int psn, int reason) {
        qp.counters.increment(reason);
        if (qp.type == QpType.RC) {
            classC(Aeth.NAK_INVALID_REQUEST, psn);
        } else {
            dropMessage = true;
            abandonMessage();
            ePsn = Psn.next(psn);
        }
    }

    /** Sends a NAK with {@code syndrome} for {@code psn} and counts it, by its code too. */
    private void sendNak(int syndrome, int psn) {
        sendAck(syndrome, psn);
        qp.counters.increment(Counters.NAKS_SENT);
        qp.counters.increment(Counters.NAKS_SENT_BY_CODE + Counters.nakCode(syndrome));
    }

    /**
     * Class C (IBTA Table 59): NAK, fail the receive in progress, and move the QP to error.
     * A receive an RDMA WRITE with immediate took before its R_Key failed completes with
     * IBV_WC_LOC_ACCESS_ERR, the status verbs give a protection error on a local buffer
     * while processing a peer's write with immediate (IBTA 11.6.2); the kernel rxe reports
     * IBV_WC_REM_ACCESS_ERR there. Other class C errors fail it as an invalid request.
     */
    private void classC(int syndrome, int psn) {
        sendNak(syndrome, psn);
        if (receiveActive) {
            WcStatus status = syndrome == Aeth.NAK_REMOTE_ACCESS_ERROR ? WcStatus.LOC_ACCESS_ERR : WcStatus.REM_INV_REQ_ERR;
            completeReceive(status, WcOpcode.RECV, 0, 0, 0, true);
        }
        qp.enterError(null);
    }

    private void abandonMessage() {
        if (receiveActive) {
            receiveOffset = 0;
        }
        writeRemaining = 0;
        lastOpcode = -1;
    }

    /**
     * Sends an acknowledgement or NAK for {@code psn}. A positive one that covers the
     * acknowledgement held back takes its place (it acknowledges the same requests and more);
     * any other sends the held one first.
     */
    private void sendAck(int syndrome, int psn) {
        if (ackHeld && syndrome == ACK && Psn.compare(psn, heldAckPsn) >= 0) {
            ackHeld = false;
        } else {
            sendHeldAck();
        }
        transmitAck(syndrome, psn, msn);
    }

    private void transmitAck(int syndrome, int psn, int messageSequence) {
        unackedPsn = Psn.next(psn);
        PacketBuilder b = qp.device.startPacket(Opcodes.RC_ACKNOWLEDGE);
        b.bth().init(Opcodes.RC_ACKNOWLEDGE, false, false, 0, 0xFFFF, qp.destQpn, false, psn);
        b.aeth().init(syndrome, messageSequence);
        qp.device.transmit(qp, 0);
    }

    private void sendAtomicAck(int psn, long original) {
        sendHeldAck();
        PacketBuilder b = qp.device.startPacket(Opcodes.RC_ATOMIC_ACKNOWLEDGE);
        b.bth().init(Opcodes.RC_ATOMIC_ACKNOWLEDGE, false, false, 0, 0xFFFF, qp.destQpn, false, psn);
        b.aeth().init(ACK, msn);
        b.atomicAckEth().originalValue(original);
        qp.device.transmit(qp, 0);
    }

    /** FLUSH and ATOMIC WRITE are answered by an RDMA READ RESPONSE ONLY with no payload. */
    private void sendReadResponseAck(int psn) {
        sendHeldAck();
        PacketBuilder b = qp.device.startPacket(Opcodes.RC_RDMA_READ_RESPONSE_ONLY);
        b.bth().init(Opcodes.RC_RDMA_READ_RESPONSE_ONLY, false, false, 0, 0xFFFF, qp.destQpn, false, psn);
        b.aeth().init(ACK, msn);
        qp.device.transmit(qp, 0);
    }
}
