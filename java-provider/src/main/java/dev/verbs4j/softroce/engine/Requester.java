package dev.verbs4j.softroce.engine;

import dev.verbs4j.QpType;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SendFlag;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.softroce.memory.KeyCheck;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.Psn;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The send side of a queue pair: turns send queue entries into request packets in PSN
 * order. It honours the PSN window, {@code max_rd_atomic} and the fence, asks for an
 * acknowledgement on the last packet of a message and every {@value #PACKETS_PER_ACK}
 * packets, and restarts from a PSN when the {@link Completer} asks for a retry
 * (go-back-N). Local operations (bind, invalidate, fast-register) run in order once
 * everything before them is acknowledged.
 */
final class Requester {
    /** Unacknowledged PSNs in flight at most (rxe {@code RXE_MAX_UNACKED_PSNS}). */
    static final int MAX_UNACKED_PSNS = 128;
    /** Ask for an ACK at least this often (rxe {@code RXE_MAX_PKT_PER_ACK}). */
    static final int PACKETS_PER_ACK = 64;
    /** Packets (or local operations) one engine step sends at most for one queue pair. */
    static final int PACKETS_PER_STEP = 64;

    private final QpEngine qp;
    /** The next PSN to send. */
    int psn;
    /** The PSN after the highest one sent: above {@link #psn} after a rewind, until the resend catches up. */
    int psnHigh;
    /** Read, atomic, FLUSH and ATOMIC WRITE requests sent and not yet answered. */
    int outstandingReadLike;
    private int packetsSinceAck;
    /** While an RNR NAK's wait runs, nothing is sent before this time. */
    long rnrWaitUntilNs;
    boolean rnrWaiting;

    Requester(QpEngine qp) {
        this.qp = qp;
    }

    void reset(int firstPsn) {
        psn = firstPsn;
        psnHigh = firstPsn;
        outstandingReadLike = 0;
        packetsSinceAck = 0;
        rnrWaiting = false;
        qp.sq.next = qp.sq.head();
    }

    int doWork(long nowNs) {
        if (rnrWaiting) {
            if (nowNs - rnrWaitUntilNs < 0) {
                return 0;
            }
            rnrWaiting = false;
        }
        SendQueue sq = qp.sq;
        int work = 0;
        while (work < PACKETS_PER_STEP && sq.next != sq.tail() && qp.state != dev.verbs4j.QpState.ERR) {
            Wqe w = sq.at(sq.next);
            if (w.state == Wqe.DONE) {
                sq.next++;
                continue;
            }
            if (w.isLocal()) {
                if (!qp.completer.allAcknowledged(this)) {
                    break;
                }
                LocalOperations.execute(qp, w);
                w.state = Wqe.DONE;
                sq.next++;
                work++;
                if (w.status != WcStatus.SUCCESS) {
                    qp.enterError(null);
                    break;
                }
                continue;
            }
            if (w.state == Wqe.POSTED) {
                if ((w.flags & SendFlag.FENCE.value()) != 0 && outstandingReadLike > 0) {
                    break;
                }
                if (w.isReadLike() && outstandingReadLike >= Math.max(1, qp.maxRdAtomic)) {
                    break;
                }
                if (!start(w)) {
                    qp.enterError(null);
                    break;
                }
            }
            // Only RC waits for acknowledgements: UC and UD send without a window.
            if (qp.type == QpType.RC && Psn.distance(qp.completer.expectedPsn, psn) >= MAX_UNACKED_PSNS) {
                break;
            }
            // A new packet (not one sent again) also needs room in the device's flight.
            if (qp.type == QpType.RC && psn == psnHigh && qp.device.inFlightFull()) {
                break;
            }
            if (qp.type == QpType.UD && w.totalLength > qp.mtu) {
                // C10-93.1.1: a UD message longer than the MTU completes without being sent.
                w.state = Wqe.DONE;
                sq.next++;
                continue;
            }
            sendPacket(w, nowNs);
            work++;
            if (w.state == Wqe.SENT) {
                sq.next++;
            }
        }
        return work;
    }

    /** Checks the local entries and assigns the first PSN; false (with the WQE completed in error) on a bad lkey. */
    private boolean start(Wqe w) {
        boolean writesLocal = w.opcode == WrOpcode.RDMA_READ || w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP
                || w.opcode == WrOpcode.ATOMIC_FETCH_AND_ADD;
        if (!w.isInline) {
            ScatterGatherList sges = w.sges;
            for (int i = 0; i < sges.count(); i++) {
                if (sges.length(i) == 0) {
                    continue;
                }
                int code = qp.device.memory().checkLocal(sges.lkey(i), qp.pdHandle, sges.address(i), sges.length(i), writesLocal);
                if (code != KeyCheck.OK) {
                    fail(w, WcStatus.LOC_PROT_ERR);
                    return false;
                }
            }
        }
        if ((w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP || w.opcode == WrOpcode.ATOMIC_FETCH_AND_ADD) && w.totalLength < 8) {
            fail(w, WcStatus.LOC_LEN_ERR);
            return false;
        }
        w.firstPsn = psn;
        w.sentBytes = 0;
        w.receivedBytes = 0;
        w.responseStarted = false;
        w.state = Wqe.SENDING;
        return true;
    }

    private void fail(Wqe w, WcStatus status) {
        w.status = status;
        w.state = Wqe.DONE;
        qp.sq.next++;
    }

    private void sendPacket(Wqe w, long nowNs) {
        switch (w.opcode) {
            case RDMA_READ -> sendReadRequest(w);
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> sendAtomic(w);
            case ATOMIC_WRITE -> sendAtomicWrite(w);
            case FLUSH -> sendFlush(w);
            default -> sendData(w);
        }
        if (w.isReadLike() && w.state == Wqe.SENT && w.sentBytes >= 0) {
            outstandingReadLike++;
        }
        qp.completer.armTimer(nowNs);
    }

    private void sendData(Wqe w) {
        long remaining = w.totalLength - w.sentBytes;
        int payload = (int) Math.min(qp.mtu, remaining);
        boolean first = w.sentBytes == 0;
        boolean last = remaining <= qp.mtu;
        int opcode = dataOpcode(w.opcode, first, last);
        PacketBuilder b = qp.device.startPacket(opcode);
        // The packet that fills the device's flight asks too: the queue pairs it stops may all
        // be in the middle of messages, and without an acknowledgement nothing would make room.
        boolean ackReq = qp.type == QpType.RC && (last || ++packetsSinceAck >= PACKETS_PER_ACK || qp.device.inFlightFillsUp());
        if (ackReq) {
            packetsSinceAck = 0;
        }
        boolean solicited = last && (w.flags & SendFlag.SOLICITED.value()) != 0;
        int destQp = qp.type == QpType.UD ? w.remoteQpn : qp.destQpn;
        b.bth().init(opcode, solicited, false, 0, 0xFFFF, destQp, ackReq, psn);
        if ((w.opcode == WrOpcode.RDMA_WRITE || w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM) && first) {
            b.reth().init(w.remoteAddress, w.rkey, (int) w.totalLength);
        }
        if (last && (w.opcode == WrOpcode.SEND_WITH_IMM || w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM)) {
            b.immDt().immData(w.immData);
        }
        if (last && w.opcode == WrOpcode.SEND_WITH_INV) {
            b.ieth().rkey(w.invalidateRkey);
        }
        if (qp.type == QpType.UD) {
            int qkey = (w.remoteQkey & 0x80000000) != 0 ? qp.qkey : w.remoteQkey;
            b.deth().init(qkey, qp.qpn);
        }
        if (!gather(w, b.payloadOffset(), payload)) {
            // A local region went away while the message was being sent.
            w.status = WcStatus.LOC_PROT_ERR;
            w.state = Wqe.DONE;
            qp.sq.next++;
            qp.enterError(null);
            return;
        }
        if (qp.type == QpType.UD) {
            qp.device.transmitTo(qp, (AddressTarget) w.ah, payload);
        } else {
            qp.device.transmit(qp, payload);
        }
        w.sentBytes += payload;
        advancePsn(1);
        if (last) {
            w.lastPsn = Psn.add(psn, -1);
            w.state = Wqe.SENT;
            if (qp.type != QpType.RC) {
                // UC and UD have no acknowledgements: the request is done once sent.
                w.state = Wqe.DONE;
            }
        }
    }

    private int dataOpcode(WrOpcode op, boolean first, boolean last) {
        int base = switch (qp.type) {
            case RC -> Opcodes.RC;
            case UC -> Opcodes.UC;
            case UD -> Opcodes.UD;
        };
        boolean send = op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.SEND_WITH_INV;
        if (qp.type == QpType.UD) {
            return op == WrOpcode.SEND_WITH_IMM ? Opcodes.UD_SEND_ONLY_WITH_IMM : Opcodes.UD_SEND_ONLY;
        }
        if (send) {
            if (first && last) {
                return switch (op) {
                    case SEND_WITH_IMM -> base + Opcodes.RC_SEND_ONLY_WITH_IMM;
                    case SEND_WITH_INV -> Opcodes.RC_SEND_ONLY_WITH_INV;
                    default -> base + Opcodes.RC_SEND_ONLY;
                };
            }
            if (first) {
                return base + Opcodes.RC_SEND_FIRST;
            }
            if (!last) {
                return base + Opcodes.RC_SEND_MIDDLE;
            }
            return switch (op) {
                case SEND_WITH_IMM -> base + Opcodes.RC_SEND_LAST_WITH_IMM;
                case SEND_WITH_INV -> Opcodes.RC_SEND_LAST_WITH_INV;
                default -> base + Opcodes.RC_SEND_LAST;
            };
        }
        boolean imm = op == WrOpcode.RDMA_WRITE_WITH_IMM;
        if (first && last) {
            return base + (imm ? Opcodes.RC_RDMA_WRITE_ONLY_WITH_IMM : Opcodes.RC_RDMA_WRITE_ONLY);
        }
        if (first) {
            return base + Opcodes.RC_RDMA_WRITE_FIRST;
        }
        if (!last) {
            return base + Opcodes.RC_RDMA_WRITE_MIDDLE;
        }
        return base + (imm ? Opcodes.RC_RDMA_WRITE_LAST_WITH_IMM : Opcodes.RC_RDMA_WRITE_LAST);
    }

    /** Copies {@code length} bytes of the message, from {@code w.sentBytes} on, to the packet. */
    private boolean gather(Wqe w, long target, int length) {
        MemorySegment packet = qp.device.txPacket();
        if (w.isInline) {
            MemorySegment.copy(w.inline, w.sentBytes, packet, target, length);
            return true;
        }
        return LocalData.gather(qp.device.memory(), qp.pdHandle, w.sges, w.sentBytes, packet, target, length);
    }

    private void sendReadRequest(Wqe w) {
        long done = w.receivedBytes;
        long length = w.totalLength - done;
        int packets = (int) Math.max(1, (length + qp.mtu - 1) / qp.mtu);
        PacketBuilder b = qp.device.startPacket(Opcodes.RC_RDMA_READ_REQUEST);
        b.bth().init(Opcodes.RC_RDMA_READ_REQUEST, false, false, 0, 0xFFFF, qp.destQpn, true, psn);
        b.reth().init(w.remoteAddress + done, w.rkey, (int) length);
        qp.device.transmit(qp, 0);
        if (done == 0) {
            w.psnCount = packets;
        }
        advancePsn(packets);
        w.lastPsn = Psn.add(psn, -1);
        w.sentBytes = w.totalLength;
        w.state = Wqe.SENT;
    }

    private void sendAtomic(Wqe w) {
        int opcode = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP ? Opcodes.RC_COMPARE_SWAP : Opcodes.RC_FETCH_ADD;
        PacketBuilder b = qp.device.startPacket(opcode);
        b.bth().init(opcode, false, false, 0, 0xFFFF, qp.destQpn, true, psn);
        if (w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP) {
            b.atomicEth().init(w.remoteAddress, w.rkey, w.swap, w.compareAdd);
        } else {
            b.atomicEth().init(w.remoteAddress, w.rkey, w.compareAdd, 0);
        }
        qp.device.transmit(qp, 0);
        singlePsn(w);
    }

    private void sendAtomicWrite(Wqe w) {
        PacketBuilder b = qp.device.startPacket(Opcodes.RC_ATOMIC_WRITE);
        b.bth().init(Opcodes.RC_ATOMIC_WRITE, false, false, 0, 0xFFFF, qp.destQpn, true, psn);
        b.reth().init(w.remoteAddress, w.rkey, 8);
        // The 8 bytes are the memory image the responder stores: the value in native order.
        qp.device.txPacket().set(ValueLayout.JAVA_LONG_UNALIGNED, b.payloadOffset(), w.swap);
        qp.device.transmit(qp, 8);
        singlePsn(w);
    }

    private void sendFlush(Wqe w) {
        PacketBuilder b = qp.device.startPacket(Opcodes.RC_FLUSH);
        b.bth().init(Opcodes.RC_FLUSH, false, false, 0, 0xFFFF, qp.destQpn, true, psn);
        b.feth().init(w.flushType, w.flushLevel);
        b.reth().init(w.remoteAddress, w.rkey, (int) Math.min(w.remoteLength, Integer.MAX_VALUE));
        qp.device.transmit(qp, 0);
        singlePsn(w);
    }

    private void singlePsn(Wqe w) {
        w.psnCount = 1;
        w.lastPsn = psn;
        advancePsn(1);
        w.sentBytes = w.totalLength;
        w.state = Wqe.SENT;
    }

    private void advancePsn(int packets) {
        psn = Psn.add(psn, packets);
        if (Psn.compare(psn, psnHigh) > 0) {
            if (qp.type == QpType.RC) {
                qp.device.addInFlight(Psn.distance(psnHigh, psn));
            }
            psnHigh = psn;
        }
    }

    /** Packets sent and not yet acknowledged: what this queue pair has in flight. */
    int unacknowledged() {
        return Psn.distance(qp.completer.expectedPsn, psnHigh);
    }

    /**
     * An acknowledgement of {@code ackedPsn} arrived after a rewind sent the requester back
     * below it: the responder has every packet up to it, so the sends and writes those
     * packets carry count as sent again (the acknowledgement then completes them) and the
     * resend goes on after them. Stops at a read-like request, which is asked again as it
     * would be anyway, and at a local operation.
     */
    void skipAcknowledged(int ackedPsn) {
        SendQueue sq = qp.sq;
        while (Psn.compare(psn, ackedPsn) <= 0 && sq.next != sq.tail()) {
            Wqe w = sq.at(sq.next);
            if (w.state == Wqe.DONE) {
                sq.next++;
                continue;
            }
            if (w.isLocal() || w.isReadLike()) {
                break;
            }
            if (w.state == Wqe.POSTED) {
                w.firstPsn = psn;
                w.receivedBytes = 0;
                w.responseStarted = false;
            }
            int packets = (int) Math.max(1, (w.totalLength + qp.mtu - 1) / qp.mtu);
            int last = Psn.add(w.firstPsn, packets - 1);
            if (Psn.compare(last, ackedPsn) <= 0) {
                w.sentBytes = w.totalLength;
                w.lastPsn = last;
                w.state = Wqe.SENT;
                psn = Psn.next(last);
                sq.next++;
            } else {
                w.sentBytes = (long) Psn.distance(w.firstPsn, Psn.next(ackedPsn)) * qp.mtu;
                w.state = Wqe.SENDING;
                psn = Psn.next(ackedPsn);
                break;
            }
        }
        packetsSinceAck = 0;
    }

    /**
     * An answer at {@code answeredPsn} (a read-like request's response, or a NAK that ends the
     * connection) arrived after a timeout sent the requester back to or below it, and before
     * the request it names went again. The responder had every packet before it and took
     * that request: all of it counts as sent again, so the answer is taken for the request's
     * own. It may be the only one to come: a responder need not answer a request it executed
     * once (the kernel rxe drops a repeated FLUSH), and one that NAKed is in the error state.
     *
     * @return whether the request at {@code answeredPsn} now counts as sent
     */
    boolean countAnsweredAsSent(int answeredPsn) {
        skipAcknowledged(Psn.add(answeredPsn, -1));
        SendQueue sq = qp.sq;
        while (sq.next != sq.tail() && sq.at(sq.next).state == Wqe.DONE) {
            sq.next++;
        }
        if (psn != answeredPsn || sq.next == sq.tail() || sq.at(sq.next).isLocal()) {
            return false;
        }
        Wqe w = sq.at(sq.next);
        if (w.state == Wqe.POSTED) {
            w.firstPsn = psn;
            w.receivedBytes = 0;
            w.responseStarted = false;
        }
        boolean onePsn = w.isReadLike() && w.opcode != WrOpcode.RDMA_READ;
        int packets = onePsn ? 1 : (int) Math.max(1, (w.totalLength + qp.mtu - 1) / qp.mtu);
        int last = Psn.add(w.firstPsn, packets - 1);
        if (Psn.compare(last, answeredPsn) < 0 || Psn.compare(last, psnHigh) >= 0) {
            return false; // not a request sent whole before the timeout
        }
        w.sentBytes = w.totalLength;
        w.lastPsn = last;
        w.state = Wqe.SENT;
        psn = Psn.next(last);
        sq.next++;
        if (w.isReadLike()) {
            outstandingReadLike++;
        }
        return true;
    }

    /**
     * Asks again for the answer to the read-like request {@code w}, from {@code fromPsn}, and
     * nothing else: the responder executed it and what follows (its ACK past the request, or a
     * later packet of the answer, said so), so it replays the answer from its resources and
     * takes nothing after the request for new. The requester's own place is kept.
     */
    void askAgain(Wqe w, int fromPsn) {
        int resumePsn = psn;
        int resumeHigh = psnHigh;
        psn = fromPsn;
        switch (w.opcode) {
            case RDMA_READ -> {
                // The answer to what has not arrived starts a new response sequence.
                w.responseStarted = false;
                sendReadRequest(w);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> sendAtomic(w);
            case ATOMIC_WRITE -> sendAtomicWrite(w);
            default -> sendFlush(w);
        }
        psn = resumePsn;
        psnHigh = resumeHigh;
        qp.counters.increment(Counters.RETRANSMITS);
        qp.device.counters().increment(Counters.RETRANSMITS);
    }

    /**
     * Go-back-N: resend from {@code fromPsn}, which lies in the request at send queue
     * position {@code position}; everything after it is sent again too.
     */
    void rewind(long position, int fromPsn) {
        SendQueue sq = qp.sq;
        long oldNext = sq.next;
        // The request the requester is in the middle of (some packets sent) goes back too.
        long end = sq.nextPartlySent() ? oldNext + 1 : oldNext;
        outstandingReadLike = 0;
        for (long p = position; p < end; p++) {
            Wqe w = sq.at(p);
            if (w.state == Wqe.DONE || w.isLocal()) {
                continue;
            }
            if (p == position) {
                if (w.opcode == WrOpcode.RDMA_READ) {
                    // The reissued read asks only for what has not arrived (IBTA 9.7.5.1.7),
                    // and its answer starts a new response sequence.
                    w.responseStarted = false;
                    w.state = Wqe.SENDING;
                } else if (w.isReadLike()) {
                    w.state = Wqe.SENDING;
                } else {
                    w.sentBytes = (long) Psn.distance(w.firstPsn, fromPsn) * qp.mtu;
                    w.state = Wqe.SENDING;
                }
            } else {
                w.state = Wqe.POSTED;
                w.sentBytes = 0;
            }
        }
        sq.next = position;
        psn = fromPsn;
        packetsSinceAck = 0;
        qp.counters.increment(Counters.RETRANSMITS);
        qp.device.counters().increment(Counters.RETRANSMITS);
    }
}
