package dev.verbs4j.softroce.engine;

import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.softroce.memory.KeyCheck;
import dev.verbs4j.softroce.monitor.SoftEvents;
import dev.verbs4j.softroce.wire.Aeth;
import dev.verbs4j.softroce.wire.OpcodeTable;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketView;
import dev.verbs4j.softroce.wire.Psn;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The requester's other half: matches acknowledgements, NAKs and responses to send queue
 * entries, places read data and atomic results, runs the retransmission and RNR timers,
 * and reports completions in order. Its states follow the kernel rxe's completer: a
 * response either acknowledges up to a PSN, answers the oldest read-like request, or
 * asks for a retry from a PSN (go-back-N, bounded by the retry counts).
 */
final class Completer {
    private final QpEngine qp;
    /** The first PSN not yet acknowledged or answered. */
    int expectedPsn;
    /** The first send queue position not yet done. */
    private long position;
    private boolean timerArmed;
    private long deadlineNs;
    private int retriesLeft;
    private int rnrRetriesLeft;
    /**
     * The requester went back to {@link #rewoundTo} for a sequence-error NAK, and nothing has
     * completed since: the same NAK again (the network duplicated it) starts no second pass.
     */
    private boolean rewound;
    private int rewoundTo;
    /**
     * A read-like request was asked again ({@link Requester#askAgain}) for an ACK past it,
     * when everything below {@link #askedBelow} had been sent, and nothing has completed
     * since. ACKs below it may have left the responder before the question came: only one
     * that acknowledges a request sent after the question (its PSN at or past askedBelow)
     * says that the answer to the question was lost, and asks again.
     */
    private boolean askedAgain;
    private int askedBelow;
    /**
     * Read-like requests asked again because responses past a missing one were dropped: every
     * such request through the one ending at this PSN is asked again, and its answer comes after
     * whatever the responder had sent before it got the question. A response up to this PSN
     * that comes past a gap is one of those, sent before: it asks nothing (valid while this PSN
     * is not behind {@link #expectedPsn}; a timeout's go-back-N ends it).
     */
    private boolean readsAsked;
    private int readsAskedThrough;
    /**
     * The responder acknowledged through this PSN, past a read-like request whose answer had
     * not come: what lies between completes once that answer does, without being sent again.
     */
    private boolean ackedPastAnswer;
    private int ackedThrough;

    Completer(QpEngine qp) {
        this.qp = qp;
    }

    void reset(int firstPsn) {
        expectedPsn = firstPsn;
        position = qp.sq.head();
        timerArmed = false;
        retriesLeft = qp.retryCount;
        rnrRetriesLeft = qp.rnrRetry;
        rewound = false;
        askedAgain = false;
        readsAsked = false;
        ackedPastAnswer = false;
    }

    /** Whether every request before the requester's current one is done (the local-operation fence). */
    boolean allAcknowledged(Requester requester) {
        advancePosition();
        return position == qp.sq.next;
    }

    void armTimer(long nowNs) {
        if (!timerArmed && qp.type == QpType.RC) {
            long t = RnrTimer.ackTimeoutNs(qp.timeout);
            if (t != Long.MAX_VALUE) {
                timerArmed = true;
                deadlineNs = nowNs + t;
            }
        }
    }

    private void rearmOrStop(long nowNs) {
        timerArmed = false;
        if (expectedPsn != qp.requester.psn) {
            armTimer(nowNs);
        }
    }

    int doWork(long nowNs) {
        int work = 0;
        if (timerArmed && nowNs - deadlineNs >= 0) {
            timerArmed = false;
            advancePosition();
            if (position < qp.sq.next || expectedPsn != qp.requester.psn) {
                qp.counters.increment(Counters.TIMEOUTS);
                qp.device.counters().increment(Counters.TIMEOUTS);
                if (--retriesLeft < 0) {
                    failOldest(WcStatus.RETRY_EXC_ERR);
                } else {
                    retryFromExpected();
                    // After a timeout nothing sent before is still on its way.
                    askedAgain = false;
                    readsAsked = false;
                    armTimer(nowNs);
                }
                work++;
            }
        }
        return work + deliver();
    }

    /** Reports finished requests, oldest first. */
    private int deliver() {
        advancePosition();
        SendQueue sq = qp.sq;
        int n = 0;
        while (sq.head() < position) {
            qp.completeOldestSend();
            n++;
        }
        return n;
    }

    private void advancePosition() {
        SendQueue sq = qp.sq;
        while (position < sq.next && sq.at(position).state == Wqe.DONE) {
            position++;
        }
    }

    /** In the error state: every unfinished request completes with WR_FLUSH_ERR. */
    int flush() {
        SendQueue sq = qp.sq;
        int n = 0;
        // The tail is read once: an application thread may post while this runs, and a request
        // posted after the loop but counted by a second read would complete with the SUCCESS
        // its post set, never having gone out. It is flushed on the next step instead.
        long end = sq.tail();
        for (long p = position; p < end; p++) {
            Wqe w = sq.at(p);
            if (w.state != Wqe.DONE) {
                w.status = WcStatus.WR_FLUSH_ERR;
                w.state = Wqe.DONE;
            }
        }
        position = end;
        sq.next = end;
        timerArmed = false;
        while (sq.head() < position) {
            qp.completeOldestSend();
            n++;
        }
        return n;
    }

    /** Handles a response packet addressed to this QP. */
    void onResponse(PacketView p, long nowNs) {
        QpState s = qp.state;
        if (qp.type != QpType.RC || (s != QpState.RTS && s != QpState.SQD && s != QpState.SQE)) {
            qp.counters.increment(Counters.DROP_QP_STATE);
            return;
        }
        int psn = p.bth().psn();
        // After a rewind, a response may name a PSN past the resend point, one of the packets
        // sent before the rewind: a plain ACK, or the answer to the request there, which then
        // counts as sent again. A response past everything ever sent answers nothing.
        boolean lateAck = p.opcode() == Opcodes.RC_ACKNOWLEDGE && Aeth.isAck(p.aeth().syndrome())
                && Psn.compare(psn, qp.requester.psnHigh) < 0;
        if (!lateAck && Psn.compare(psn, qp.requester.psn) >= 0 && Psn.compare(psn, qp.requester.psnHigh) < 0
                && endsARequest(p)) {
            qp.requester.countAnsweredAsSent(psn);
        }
        if (Psn.compare(psn, qp.requester.psn) >= 0 && !lateAck) {
            qp.counters.increment(Counters.DROP_GHOST_RESPONSE);
            return;
        }
        if (Psn.compare(psn, expectedPsn) < 0) {
            qp.counters.increment(Counters.DUPLICATES);
            return;
        }
        int opcode = p.opcode();
        if (opcode == Opcodes.RC_ACKNOWLEDGE) {
            int syndrome = p.aeth().syndrome();
            if (Aeth.isAck(syndrome)) {
                if (Psn.compare(psn, qp.requester.psn) >= 0) {
                    // Packets sent before a rewind arrived: they need not go again. The ACK
                    // stands for no more than the requester has now sent, so a read it
                    // passes is asked again as usual, not taken for one whose answer was lost.
                    qp.requester.skipAcknowledged(psn);
                    psn = Psn.compare(psn, qp.requester.psn) < 0 ? psn : Psn.add(qp.requester.psn, -1);
                }
                acknowledge(psn, true, nowNs);
            } else if (Aeth.isRnrNak(syndrome)) {
                rnrNak(psn, Aeth.value(syndrome), nowNs);
            } else if (Aeth.isNak(syndrome)) {
                nak(psn, Aeth.value(syndrome), nowNs);
            } else {
                // A reserved AETH type: not a response this requester understands.
                qp.counters.increment(Counters.DROP_MALFORMED);
                return;
            }
        } else if (opcode == Opcodes.RC_ATOMIC_ACKNOWLEDGE) {
            if (!acknowledge(psn, false, nowNs)) {
                atomicAck(p, psn);
            }
        } else if (p.has(OpcodeTable.READ_RESPONSE)) {
            if (!acknowledge(psn, false, nowNs)) {
                readResponse(p, psn);
            }
        }
        if (ackedPastAnswer) {
            ackedPastAnswer = Psn.compare(ackedThrough, expectedPsn) >= 0 && Psn.compare(ackedThrough, qp.requester.psn) < 0;
            if (ackedPastAnswer && qp.state != QpState.ERR) {
                acknowledge(ackedThrough, true, nowNs);
            }
        }
        retriesLeftAfterProgress();
        rearmOrStop(nowNs);
    }

    /**
     * Whether {@code p} answers the request at its PSN for good: a read response, an atomic
     * acknowledgement, or a NAK other than a sequence error (an RNR NAK or a sequence error
     * asks for the request again, which goes again anyway).
     */
    private static boolean endsARequest(PacketView p) {
        if (p.opcode() == Opcodes.RC_ACKNOWLEDGE) {
            int syndrome = p.aeth().syndrome();
            return Aeth.isNak(syndrome) && Aeth.value(syndrome) != 0;
        }
        return p.opcode() == Opcodes.RC_ATOMIC_ACKNOWLEDGE || p.has(OpcodeTable.READ_RESPONSE);
    }

    private int lastProgressPsn = -1;

    private void retriesLeftAfterProgress() {
        if (expectedPsn != lastProgressPsn) {
            lastProgressPsn = expectedPsn;
            retriesLeft = qp.retryCount;
            rnrRetriesLeft = qp.rnrRetry;
        }
    }

    /**
     * Completes sends and writes acknowledged by {@code psn}: up to and including it when
     * {@code inclusive} (an ACK), else only before it (a response or NAK for {@code psn}).
     * Stops at the first read-like request still waiting for its answer; an ACK beyond such
     * a request means its answer was lost, so the requester asks for it again.
     */
    private boolean acknowledge(int psn, boolean inclusive, long nowNs) {
        SendQueue sq = qp.sq;
        advancePosition();
        long p = position;
        while (p < sq.next) {
            Wqe w = sq.at(p);
            if (w.state == Wqe.DONE) {
                p++;
                continue;
            }
            if (w.isReadLike()) {
                int answered = readExpected(w);
                // A response among the read's own PSNs does not pass it: one of its packets is
                // missing, which readResponse handles.
                boolean past = inclusive ? Psn.compare(answered, psn) <= 0
                        : Psn.compare(answered, psn) < 0 && Psn.compare(w.lastPsn, psn) < 0;
                if (past) {
                    // Acknowledged past a request whose answer never came: an implied NAK.
                    expectedPsn = answered;
                    int through = inclusive ? psn : Psn.add(psn, -1);
                    if (!ackedPastAnswer || Psn.compare(through, ackedThrough) > 0) {
                        ackedPastAnswer = true;
                        ackedThrough = through;
                    }
                    if (!inclusive) {
                        // A response or NAK of a later request: the responses between were
                        // dropped, or lost; each read-like request there goes again once.
                        askAgainThrough(psn);
                    } else if (!readsAskedCover(w) && (!askedAgain || Psn.compare(psn, askedBelow) >= 0)) {
                        askAgain(w, answered);
                    }
                    return true;
                }
                break;
            }
            int cmp = Psn.compare(w.lastPsn, psn);
            if (w.state == Wqe.SENT && (cmp < 0 || (inclusive && cmp == 0))) {
                done(w);
                p++;
                continue;
            }
            break;
        }
        int next = inclusive ? Psn.next(psn) : psn;
        if (Psn.compare(next, expectedPsn) > 0) {
            expectedPsn = next;
        }
        advancePosition();
        return false;
    }

    /** The PSN of the next answer a read-like request waits for. */
    private int readExpected(Wqe w) {
        if (w.opcode == WrOpcode.RDMA_READ) {
            return Psn.add(w.firstPsn, (int) (w.receivedBytes / qp.mtu));
        }
        return w.firstPsn;
    }

    private Wqe oldestWaiting() {
        advancePosition();
        return position < qp.sq.next ? qp.sq.at(position) : null;
    }

    private void readResponse(PacketView p, int psn) {
        Wqe w = oldestWaiting();
        if (w == null || !w.isReadLike() || w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP || w.opcode == WrOpcode.ATOMIC_FETCH_AND_ADD) {
            qp.counters.increment(Counters.DROP_GHOST_RESPONSE);
            return;
        }
        int expected = readExpected(w);
        int cmp = Psn.compare(psn, expected);
        if (cmp > 0) {
            // A response was lost, or overtaken: this one is dropped, and so is every response
            // after it until the missing one comes.
            qp.counters.increment(Counters.OUT_OF_SEQUENCE);
            expectedPsn = expected;
            askAgainThrough(psn);
            return;
        }
        if (cmp < 0) {
            qp.counters.increment(Counters.DUPLICATES);
            return;
        }
        int opcode = p.opcode();
        if (w.opcode != WrOpcode.RDMA_READ) {
            // FLUSH and ATOMIC WRITE are answered by a zero-length READ RESPONSE ONLY.
            if (opcode != Opcodes.RC_RDMA_READ_RESPONSE_ONLY || p.payloadLength() != 0) {
                finish(w, WcStatus.BAD_RESP_ERR);
                return;
            }
            finish(w, WcStatus.SUCCESS);
            expectedPsn = Psn.next(psn);
            return;
        }
        long remaining = w.totalLength - w.receivedBytes;
        boolean startsMessage = opcode == Opcodes.RC_RDMA_READ_RESPONSE_FIRST || opcode == Opcodes.RC_RDMA_READ_RESPONSE_ONLY;
        boolean endsMessage = opcode == Opcodes.RC_RDMA_READ_RESPONSE_LAST || opcode == Opcodes.RC_RDMA_READ_RESPONSE_ONLY;
        int payload = p.payloadLength();
        boolean lengthOk = endsMessage ? payload == remaining : payload == qp.mtu && remaining > qp.mtu;
        // After the requester asked again for the rest of a read (IBTA 9.7.5.1.7), a late
        // response to the first request may come before the answer to the second: at this
        // PSN it carries the very bytes the second asks for, so it continues the read.
        boolean resumes = !startsMessage && !w.responseStarted && w.receivedBytes > 0;
        if ((startsMessage == w.responseStarted && !resumes) || !lengthOk) {
            // Out of sequence (a MIDDLE before any FIRST, a FIRST inside a response) or a bad length.
            finish(w, WcStatus.BAD_RESP_ERR);
            return;
        }
        w.responseStarted = !endsMessage;
        if (!scatter(w, p.segment(), p.payloadOffset(), payload)) {
            finish(w, WcStatus.LOC_PROT_ERR);
            return;
        }
        w.receivedBytes += payload;
        expectedPsn = Psn.next(psn);
        if (endsMessage) {
            finish(w, WcStatus.SUCCESS);
        }
    }

    private void atomicAck(PacketView p, int psn) {
        Wqe w = oldestWaiting();
        if (w == null || (w.opcode != WrOpcode.ATOMIC_CMP_AND_SWP && w.opcode != WrOpcode.ATOMIC_FETCH_AND_ADD)
                || w.firstPsn != psn) {
            qp.counters.increment(Counters.DROP_GHOST_RESPONSE);
            return;
        }
        // The result goes through the request's entries as any received bytes do: an
        // unaligned result buffer may straddle two pages of a fast-registered region.
        MemorySegment result = qp.device.atomicResult();
        result.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, p.atomicAckEth().originalValue());
        if (LocalData.scatter(qp.device.memory(), qp.pdHandle, w.sges, 0, result, 0, 8) != 8) {
            // The result buffer went away while the atomic was in flight.
            finish(w, WcStatus.LOC_PROT_ERR);
            return;
        }
        w.receivedBytes = 8;
        finish(w, WcStatus.SUCCESS);
        expectedPsn = Psn.next(psn);
    }

    /**
     * Marks {@code w} answered. One that will complete to the application while the requester
     * has nothing more to send (every request posted is sent, none is to go again) is what
     * the application may be waiting for: it counts ({@link DeviceEngine#awaitedAnswers}).
     */
    private void done(Wqe w) {
        w.state = Wqe.DONE;
        rewound = false;
        askedAgain = false;
        if ((qp.signalAll || (w.flags & dev.verbs4j.SendFlag.SIGNALED.value()) != 0) && qp.sq.next == qp.sq.tail()) {
            qp.device.awaitedAnswers++;
        }
    }

    /** Places read data into the request's scatter list at its current offset. */
    private boolean scatter(Wqe w, MemorySegment packet, long from, int length) {
        return LocalData.scatter(qp.device.memory(), qp.pdHandle, w.sges, w.receivedBytes, packet, from, length) == length;
    }

    private void finish(Wqe w, WcStatus status) {
        w.status = status;
        done(w);
        if (qp.requester.outstandingReadLike > 0) {
            qp.requester.outstandingReadLike--;
        }
        if (status != WcStatus.SUCCESS) {
            qp.enterError(null);
        }
        advancePosition();
    }

    private void rnrNak(int psn, int timerCode, long nowNs) {
        qp.counters.increment(Counters.RNR_NAKS_RECEIVED);
        if (acknowledge(psn, false, nowNs)) {
            return;
        }
        if (qp.rnrRetry != 7 && --rnrRetriesLeft < 0) {
            failOldest(WcStatus.RNR_RETRY_EXC_ERR);
            return;
        }
        qp.requester.rnrWaiting = true;
        qp.requester.rnrWaitUntilNs = nowNs + RnrTimer.rnrDelayNs(timerCode);
        retryFromExpected();
        lastProgressPsn = expectedPsn; // an RNR NAK is not progress: keep the RNR count running
    }

    private void nak(int psn, int code, long nowNs) {
        qp.counters.increment(Counters.NAKS_RECEIVED);
        qp.counters.increment(Counters.NAKS_RECEIVED_BY_CODE + Counters.nakCode(code));
        if (acknowledge(psn, false, nowNs)) {
            return;
        }
        WcStatus status = switch (code) {
            case 0 -> null;
            case 1 -> WcStatus.REM_INV_REQ_ERR;
            case 2 -> WcStatus.REM_ACCESS_ERR;
            case 3 -> WcStatus.REM_OP_ERR;
            default -> WcStatus.REM_INV_RD_REQ_ERR;
        };
        if (status == null) {
            // PSN sequence error: the responder missed something at psn; resend from there. The
            // NAK acknowledged what came before psn: progress restores the retry count first, so
            // only NAKs and timeouts in a row at one PSN run it out, however long the message.
            retriesLeftAfterProgress();
            if (rewound && expectedPsn == rewoundTo) {
                return; // the NAK that started this retry, again
            }
            if (--retriesLeft < 0) {
                failOldest(WcStatus.RETRY_EXC_ERR);
            } else {
                retryFromExpected();
                rewound = true;
                rewoundTo = expectedPsn;
            }
            return;
        }
        failOldest(status);
    }

    private void retryFromExpected() {
        // What goes again is acknowledged again: the ACK past an answer stands for no more.
        ackedPastAnswer = false;
        readsAsked = false;
        advancePosition();
        if (position < qp.sq.next || partlySent(position)) {
            qp.requester.rewind(position, readOrExpected(qp.sq.at(position)));
        }
    }

    /**
     * A read-like request's answer was lost, though the responder went on past it (an ACK
     * past it said so): asks for the answer again.
     */
    private void askAgain(Wqe w, int fromPsn) {
        if (w.state != Wqe.SENT) {
            return; // a rewind sends it again anyway
        }
        askedAgain = true;
        askedBelow = qp.requester.psnHigh;
        qp.requester.askAgain(w, fromPsn);
    }

    /**
     * A read response at {@code psn} came past a missing one and was dropped: asks again for
     * each read-like request not yet asked, from the one waiting through the one {@code psn}
     * answers (IBTA 9.7.5.1.7: a requester may reissue a read from the first missing byte).
     * Each goes once: the responses the responder sent before it got the questions keep
     * coming, each past the gap, and asking again for one of them would draw its whole answer
     * again, on a link slower than the responses, over and over. A lost answer to a question
     * is left to the timeout's go-back-N, as the kernel rxe leaves every lost response.
     */
    private void askAgainThrough(int psn) {
        boolean live = readsAskedLive();
        if (live && Psn.compare(psn, readsAskedThrough) <= 0) {
            return;
        }
        SendQueue sq = qp.sq;
        for (long p = position; p < sq.next; p++) {
            Wqe w = sq.at(p);
            if (w.state == Wqe.DONE || !w.isReadLike()) {
                continue;
            }
            if (Psn.compare(w.firstPsn, psn) > 0) {
                break;
            }
            if (live && Psn.compare(w.lastPsn, readsAskedThrough) <= 0) {
                continue;
            }
            if (w.state == Wqe.SENT) {
                qp.requester.askAgain(w, readExpected(w));
                readsAsked = true;
                live = true;
                readsAskedThrough = w.lastPsn;
            }
        }
    }

    private boolean readsAskedLive() {
        return readsAsked && Psn.compare(readsAskedThrough, expectedPsn) >= 0;
    }

    /** Whether read-like request {@code w} was asked again for a response past a gap, its answer still to come. */
    private boolean readsAskedCover(Wqe w) {
        return readsAskedLive() && Psn.compare(w.lastPsn, readsAskedThrough) <= 0;
    }

    /**
     * Whether the request at {@code p} is the one the requester is in the middle of: started,
     * its first packets sent, the rest not yet (a long message, or the window full).
     */
    private boolean partlySent(long p) {
        return p == qp.sq.next && qp.sq.nextPartlySent();
    }

    private int readOrExpected(Wqe w) {
        if (w.isReadLike()) {
            expectedPsn = readExpected(w);
            return expectedPsn;
        }
        if (Psn.compare(expectedPsn, w.firstPsn) < 0) {
            expectedPsn = w.firstPsn;
        }
        return expectedPsn;
    }

    private void failOldest(WcStatus status) {
        Wqe w = oldestWaiting();
        if (w == null && partlySent(position)) {
            w = qp.sq.at(position);
        }
        if (w != null) {
            w.status = status;
            w.state = Wqe.DONE;
        }
        SoftEvents.retryExhausted(qp.device.name(), qp.qpn, status, expectedPsn);
        qp.enterError(null, status.name());
    }
}
