package dev.verbs4j.softroce;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.Mtu;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcFlag;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.Counters;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.Psn;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The requester, responder and completer, one behaviour at a time, over an in-memory
 * network and a fake clock.
 */
class TransportStateMachineTest {
    private final WatchingLink[] links = new WatchingLink[2];
    private int linkCount;
    private final SimulatedPair sim = new SimulatedPair(3, l -> links[linkCount++] = new WatchingLink(l));

    private WatchingLink linkA() {
        return links[0];
    }

    private WatchingLink linkB() {
        return links[1];
    }

    private static WorkCompletion poll(SimulatedPair sim, CompletionQueue cq, int maxSteps) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> cq.poll(wc) == 1, maxSteps), "no completion after " + maxSteps + " steps");
        return wc[0];
    }

    @Test
    void rnrNakWhenNoReceiveIsPostedThenSuccessOnceOneIs() {
        try (RcPair p = sim.connect(1 << 16, 8, new RcOptions().timeout(10).rnrRetry(7).minRnrTimer(1))) {
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 100).send());
            sim.runUntil(() -> false, 50);
            long rnrNaks = sim.deviceB.engine().counters().get(Counters.PACKETS_OUT);
            assertTrue(linkB().sent.stream().anyMatch(x -> x[0] == Opcodes.RC_ACKNOWLEDGE), "an RNR NAK went out");
            assertTrue(rnrNaks > 0);
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(9).buffer(p.b.mr, 0, 100));
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status());
            WorkCompletion r = poll(sim, p.b.cq, 10_000);
            assertEquals(9, r.wrId());
            assertEquals(100, r.byteLength());
        }
    }

    @Test
    void rnrRetryZeroEndsWithRnrRetryExceededAndFlushesTheRest() {
        try (RcPair p = sim.connect(1 << 16, 8, new RcOptions().timeout(10).rnrRetry(0))) {
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 100).send());
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(false).buffer(p.a.mr, 0, 100).rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            WorkCompletion first = poll(sim, p.a.cq, 10_000);
            assertEquals(WcStatus.RNR_RETRY_EXC_ERR, first.status(), first.toString());
            WorkCompletion second = poll(sim, p.a.cq, 10_000);
            assertEquals(2, second.wrId());
            assertEquals(WcStatus.WR_FLUSH_ERR, second.status(), "an unsignaled request still completes when flushed");
            assertEquals(QpState.ERR, p.a.qp.state());
        }
    }

    /**
     * Large reads' responses go out a few packets per engine step, interleaved with the
     * requester's steps, not as one burst, and their PSNs follow each other.
     */
    @Test
    void readResponsesArePaced() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(14).mtu(dev.verbs4j.Mtu.MTU_1024))) {
            fillResponderBuffer(p, 256 * 1024);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 128 * 1024)
                    .rdmaRead(p.b.mr.address(), p.b.mr.rkey()));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 128 * 1024, 128 * 1024)
                    .rdmaRead(p.b.mr.address() + 128 * 1024, p.b.mr.rkey()));
            int mostInOneStep = runToCompletions(p, 2);

            assertEquals(-1, p.a.buf.asSlice(0, 256 * 1024).mismatch(p.b.buf.asSlice(0, 256 * 1024)), "bytes read");
            // 2 x 128 KiB at MTU 1024: 256 response packets, at most 64 per step.
            assertEquals(256, responsePackets(0, linkB().sent.size()));
            assertTrue(mostInOneStep <= 64, "at most 64 response packets per step, sent " + mostInOneStep);
        }
    }

    /** A write posted after a read is acknowledged only after the read's last response packet. */
    @Test
    void anAcknowledgementFollowsTheReadResponsesBeforeIt() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(14).mtu(dev.verbs4j.Mtu.MTU_1024))) {
            fillResponderBuffer(p, 64 * 1024);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 64 * 1024)
                    .rdmaRead(p.b.mr.address(), p.b.mr.rkey()));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 512 * 1024, 64)
                    .rdmaWrite(p.b.mr.address() + 512 * 1024, p.b.mr.rkey()));
            runToCompletions(p, 2);

            int firstAck = -1;
            for (int i = 0; i < linkB().sent.size() && firstAck < 0; i++) {
                firstAck = linkB().sent.get(i)[0] == Opcodes.RC_ACKNOWLEDGE ? i : -1;
            }
            assertTrue(firstAck > 0, "the write was acknowledged");
            assertEquals(64, responsePackets(0, firstAck), "all 64 response packets came before the acknowledgement");
        }
    }

    /**
     * A read whose responses are late: the requester times out and asks again for what has
     * not arrived (IBTA 9.7.5.1.7), and the late responses of the first request come before
     * the answer to the second. They carry the bytes the second asks for, at the PSNs it
     * expects, so they continue the read rather than break it.
     */
    @Test
    void lateResponsesOfAReadAskedAgainContinueIt() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(10).mtu(dev.verbs4j.Mtu.MTU_1024))) {
            fillResponderBuffer(p, 8192);
            int[] responses = {0};
            linkB().hold = v -> v.has(dev.verbs4j.softroce.wire.OpcodeTable.READ_RESPONSE) && ++responses[0] > 2;
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 8192)
                    .rdmaRead(p.b.mr.address(), p.b.mr.rkey()));

            assertTrue(sim.runUntil(() -> linkA().count(Opcodes.RC_RDMA_READ_REQUEST) == 2, 10_000),
                    "the requester asked again after its timeout");
            assertTrue(sim.runUntil(() -> linkB().heldCount() == 12, 10_000),
                    "six late responses of the first request and six answering the second, held back");
            linkB().hold = v -> false;
            linkB().release();

            WorkCompletion wc = poll(sim, p.a.cq, 10_000);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(-1, p.a.buf.asSlice(0, 8192).mismatch(p.b.buf.asSlice(0, 8192)), "bytes read");
        }
    }

    /**
     * Eight reads in flight on a link slower than their responses (one packet per 100 µs,
     * 128 packets: 12.8 ms), and one response of the first read lost. Every response after
     * the gap is dropped until the missing one comes, so each read is asked again, once: the
     * responses the responder sent before it got the questions keep arriving for a while,
     * and asking again for each of them (as once, after an eighth of the ACK timeout) drew
     * the whole answers again and again, a storm that held a 1 ms, 0.1 % loss link with
     * ib_read_bw at a third of its goodput.
     */
    @Test
    void aLostReadResponseAsksEachReadInFlightAgainOnce() {
        int reads = 8;
        int length = 16 * 1024; // 16 packets each at MTU 1024
        try (RcPair p = sim.connect(1 << 20, 16, new RcOptions().timeout(14).mtu(dev.verbs4j.Mtu.MTU_1024))) {
            fillResponderBuffer(p, reads * length);
            int[] responses = {0};
            linkB().drop = v -> v.has(dev.verbs4j.softroce.wire.OpcodeTable.READ_RESPONSE) && ++responses[0] == 3;
            linkB().hold = v -> v.has(dev.verbs4j.softroce.wire.OpcodeTable.READ_RESPONSE);
            for (int i = 0; i < reads; i++) {
                p.a.qp.postSend(new SendWorkRequest().wrId(i).signaled(true).buffer(p.a.mr, (long) i * length, length)
                        .rdmaRead(p.b.mr.address() + (long) i * length, p.b.mr.rkey()));
            }
            WorkCompletion[] wc = {new WorkCompletion()};
            int done = 0;
            for (int step = 0; step < 20_000 && done < reads; step++) {
                if (linkB().heldCount() > 0) {
                    linkB().release(1);
                }
                sim.step();
                sim.nowNs += 100_000;
                while (p.a.cq.poll(wc) == 1) {
                    assertEquals(WcStatus.SUCCESS, wc[0].status(), wc[0].toString());
                    done++;
                }
            }
            assertEquals(reads, done, "every read completed");
            assertEquals(-1, p.a.buf.asSlice(0, reads * length).mismatch(p.b.buf.asSlice(0, reads * length)), "bytes read");
            assertEquals(2 * reads, linkA().count(Opcodes.RC_RDMA_READ_REQUEST), "each read asked for twice, no more");
            assertTrue(responses[0] <= 2 * reads * 16, "responses sent: " + responses[0] + ", at most each read's twice");
        }
    }

    @Test
    void aLateAcknowledgementOfPacketsSentBeforeARetransmissionCompletesThemWithoutSendingThemAgain() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(10).mtu(dev.verbs4j.Mtu.MTU_1024))) {
            int message = 64 * 1024; // 64 packets each: resending both takes the requester two steps
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(11).buffer(p.b.mr, 0, message));
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(12).buffer(p.b.mr, message, message));
            linkB().hold = v -> v.opcode() == Opcodes.RC_ACKNOWLEDGE;
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, message).send());
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, message, message).send());

            assertTrue(sim.runUntil(() -> linkA().count(Opcodes.RC_SEND_FIRST) == 3, 10_000),
                    "the requester timed out and began sending the first message again");
            linkB().hold = v -> false;
            linkB().release();

            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status(), "the first send");
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status(), "the second send");
            assertEquals(3, linkA().count(Opcodes.RC_SEND_FIRST),
                    "the held acknowledgement covered the second message: it was not sent again");
            assertEquals(0, ((SoftQp) p.a.qp).engine.counters().get(Counters.DROP_GHOST_RESPONSE),
                    "no acknowledgement was taken for a response to a packet never sent");
        }
    }

    private static void fillResponderBuffer(RcPair p, int length) {
        for (int i = 0; i < length; i++) {
            p.b.buf.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13));
        }
    }

    /** Steps until {@code count} successful completions on A; returns the most packets B sent in one step. */
    private int runToCompletions(RcPair p, int count) {
        int mostInOneStep = 0;
        WorkCompletion[] wc = {new WorkCompletion()};
        int completions = 0;
        for (int step = 0; step < 10_000 && completions < count; step++) {
            int before = linkB().sent.size();
            sim.step();
            mostInOneStep = Math.max(mostInOneStep, linkB().sent.size() - before);
            while (p.a.cq.poll(wc) == 1) {
                assertEquals(WcStatus.SUCCESS, wc[0].status(), wc[0].toString());
                completions++;
            }
        }
        assertEquals(count, completions, "completions");
        return mostInOneStep;
    }

    /** How many of B's packets {@code [from, to)} are read responses, checking that their PSNs follow each other. */
    private int responsePackets(int from, int to) {
        int responses = 0;
        int expectedPsn = -1;
        for (int i = from; i < to; i++) {
            int[] packet = linkB().sent.get(i);
            if (packet[0] >= Opcodes.RC_RDMA_READ_RESPONSE_FIRST && packet[0] <= Opcodes.RC_RDMA_READ_RESPONSE_ONLY) {
                if (expectedPsn >= 0) {
                    assertEquals(expectedPsn, packet[1], "response PSNs follow each other");
                }
                expectedPsn = (packet[1] + 1) & 0xFFFFFF;
                responses++;
            }
        }
        return responses;
    }

    @Test
    void retriesRunOutWhenThePeerIsGone() {
        try (RcPair p = sim.connect(1 << 16, 8, new RcOptions().timeout(8).retryCount(2))) {
            p.b.qp.modify(new QpAttributes().state(QpState.RESET));
            p.a.qp.postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(p.a.mr, 0, 64).rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            WorkCompletion wc = poll(sim, p.a.cq, 100_000);
            assertEquals(WcStatus.RETRY_EXC_ERR, wc.status(), wc.toString());
            // The first try and two retries: three copies of the only packet.
            assertEquals(3, linkA().count(Opcodes.RC_RDMA_WRITE_ONLY));
        }
    }

    @Test
    void badRkeyIsARemoteAccessErrorAndPutsBothSidesInError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            p.a.qp.postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(p.a.mr, 0, 64)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey() ^ 0x5a));
            assertEquals(WcStatus.REM_ACCESS_ERR, poll(sim, p.a.cq, 10_000).status());
            assertEquals(QpState.ERR, p.b.qp.state());
        }
    }

    @Test
    void outOfBoundsReadIsARemoteAccessError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            p.a.qp.postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(p.a.mr, 0, 64)
                    .rdmaRead(p.b.mr.address() + p.b.mr.length() - 32, p.b.mr.rkey()));
            assertEquals(WcStatus.REM_ACCESS_ERR, poll(sim, p.a.cq, 10_000).status());
        }
    }

    /**
     * A one-packet RDMA WRITE with immediate takes a receive before its R_Key fails: that
     * receive completes with the local protection error verbs define for it (IBTA 11.6.2,
     * IBV_WC_LOC_ACCESS_ERR), not as an invalid request.
     */
    @Test
    void writeWithImmediateUnderBadRkeyFailsItsReceiveWithLocalAccessError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(9).buffer(p.b.mr, 0, 64));
            p.a.qp.postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(p.a.mr, 0, 64)
                    .rdmaWriteWithImm(p.b.mr.address(), p.b.mr.rkey() ^ 0x5a, 7));
            assertEquals(WcStatus.REM_ACCESS_ERR, poll(sim, p.a.cq, 10_000).status());
            WorkCompletion receive = poll(sim, p.b.cq, 10_000);
            assertEquals(9, receive.wrId());
            assertEquals(WcStatus.LOC_ACCESS_ERR, receive.status(), receive.toString());
            assertEquals(QpState.ERR, p.b.qp.state());
        }
    }

    @Test
    void misalignedAtomicIsAnInvalidRequest() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            p.a.qp.postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(p.a.mr, 0, 8)
                    .fetchAndAdd(p.b.mr.address() + 4, p.b.mr.rkey(), 1));
            assertEquals(WcStatus.REM_INV_REQ_ERR, poll(sim, p.a.cq, 10_000).status());
        }
    }

    @Test
    void aLostPacketIsNakedOnceAndResent() {
        try (RcPair p = sim.connect(1 << 20, 8, 10)) {
            int[] seen = {0};
            linkA().drop = v -> v.opcode() == Opcodes.RC_RDMA_WRITE_MIDDLE && ++seen[0] == 2;
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 10 * 4096)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status());
            assertEquals(1, ((SoftQp) p.b.qp).engine.counters().get(Counters.NAKS_SENT),
                    "one sequence NAK for one gap, however many packets followed it");
            assertTrue(((SoftQp) p.b.qp).engine.counters().get(Counters.OUT_OF_SEQUENCE) >= 7,
                    "the packets after the gap were dropped");
            assertEquals(-1, p.a.buf.asSlice(0, 10 * 4096).mismatch(p.b.buf.asSlice(0, 10 * 4096)));
        }
    }

    /**
     * Sequence-error NAKs that each come after progress do not add up: a NAK acknowledges what
     * came before its PSN, which restores the retry count before the NAK takes one retry. Only
     * NAKs and timeouts in a row at one PSN run the count out; before, every NAK took one, and
     * a long message that met more NAKs than its retry count failed RETRY_EXC_ERR while it
     * advanced.
     */
    @Test
    void sequenceErrorNaksAfterProgressDoNotRunTheRetriesOut() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(10).retryCount(1))) {
            List<Integer> order = new ArrayList<>();
            Map<Integer, Integer> copies = new HashMap<>();
            int length = 40 * 4096;
            // The 1st copy of the 5th middle packet, the 2nd of the 12th, the 3rd of the 20th: each
            // pass of go-back-N meets a new gap a little further on, before any ACK comes back.
            linkA().drop = v -> {
                if (v.opcode() != Opcodes.RC_RDMA_WRITE_MIDDLE) {
                    return false;
                }
                int psn = v.bth().psn();
                if (!copies.containsKey(psn)) {
                    order.add(psn);
                }
                int copy = copies.merge(psn, 1, Integer::sum);
                int index = order.indexOf(psn) + 1;
                return (index == 5 && copy == 1) || (index == 12 && copy == 2) || (index == 20 && copy == 3);
            };
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, length)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            WorkCompletion wc = poll(sim, p.a.cq, 100_000);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(3, ((SoftQp) p.b.qp).engine.counters().get(Counters.NAKS_SENT), "a NAK for each of the three gaps");
            assertEquals(-1, p.a.buf.asSlice(0, length).mismatch(p.b.buf.asSlice(0, length)));
        }
    }

    /**
     * A NAK that comes twice, the second copy after the requester went back for the first,
     * starts no second pass of go-back-N: the message goes out once and, from the gap, once
     * more. Before, each copy sent the rest of the message again.
     */
    @Test
    void aSequenceErrorNakThatComesTwiceStartsOneRetry() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(14))) {
            int[] seen = {0};
            linkA().drop = v -> v.opcode() == Opcodes.RC_RDMA_WRITE_MIDDLE && ++seen[0] == 2;
            linkB().duplicate = v -> v.opcode() == Opcodes.RC_ACKNOWLEDGE && dev.verbs4j.softroce.wire.Aeth.isNak(v.aeth().syndrome());
            linkB().hold = v -> v.opcode() == Opcodes.RC_ACKNOWLEDGE && dev.verbs4j.softroce.wire.Aeth.isAck(v.aeth().syndrome());
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 10 * 4096)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            assertTrue(sim.runUntil(() -> linkA().count(Opcodes.RC_RDMA_WRITE_LAST) == 2, 10_000), "the write went again from the gap");
            assertEquals(2, linkB().heldCount(), "the NAK's copy, then the ACK of the packets sent again");
            linkB().release(1);
            sim.runUntil(() -> false, 10);
            linkB().hold = v -> false;
            linkB().duplicate = v -> false;
            linkB().release();
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status());
            assertEquals(2, linkA().count(Opcodes.RC_RDMA_WRITE_LAST), "the second copy of the NAK sent nothing again");
            assertEquals(10 + 8, linkA().sent.size(), "ten packets, and the eight from the gap on");
            assertEquals(-1, p.a.buf.asSlice(0, 10 * 4096).mismatch(p.b.buf.asSlice(0, 10 * 4096)));
        }
    }

    /**
     * Acknowledgements of the writes after a read that overtake the read's response mean, by
     * IBTA's implied NAK, that the response was lost: each with a later PSN asks for the read
     * again, in one packet, and no write goes twice (the responder executed them all). Once
     * the held responses arrive, everything completes, the writes through the acknowledgement
     * already taken. Before, each acknowledgement sent the read and every write after it
     * again; over a network that reorders, the acknowledgements of those duplicates came in
     * their turn past the read's answer, each sending the window again: a storm.
     */
    @Test
    void acknowledgementsThatOvertakeAReadResponseAskForItAlone() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(14).mtu(dev.verbs4j.Mtu.MTU_1024))) {
            fillResponderBuffer(p, 8192);
            linkB().hold = v -> v.has(dev.verbs4j.softroce.wire.OpcodeTable.READ_RESPONSE);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 8192)
                    .rdmaRead(p.b.mr.address(), p.b.mr.rkey()));
            for (int i = 0; i < 4; i++) {
                p.a.qp.postSend(new SendWorkRequest().wrId(2 + i).signaled(true).buffer(p.a.mr, 65536 + i * 64, 64)
                        .rdmaWrite(p.b.mr.address() + 65536 + i * 64, p.b.mr.rkey()));
                sim.step();
                sim.step();
            }
            assertTrue(sim.runUntil(() -> linkB().count(Opcodes.RC_ACKNOWLEDGE) >= 4, 1_000), "the writes were acknowledged");
            sim.runUntil(() -> false, 5);
            long acknowledgements = linkB().count(Opcodes.RC_ACKNOWLEDGE);
            linkB().hold = v -> false;
            linkB().release();
            runToCompletions(p, 5);
            assertEquals(4, linkA().count(Opcodes.RC_RDMA_WRITE_ONLY), "no write went twice");
            long reads = linkA().count(Opcodes.RC_RDMA_READ_REQUEST);
            assertTrue(reads >= 2 && reads <= 1 + acknowledgements, reads + " read requests for " + acknowledgements + " acknowledgements");
            assertEquals(-1, p.a.buf.asSlice(0, 8192).mismatch(p.b.buf.asSlice(0, 8192)), "bytes read");
        }
    }

    /**
     * A packet lost while its message is still being sent (200 packets: more than a step
     * sends, more than the window of unacknowledged packets) is sent again from the gap, and
     * the message completes; before, the requester went back only to requests it had finished
     * sending, so the NAK and every timeout after it resent nothing, and the queue pair failed
     * with its requests flushed.
     */
    @Test
    void aPacketLostWhileItsMessageIsStillBeingSentIsSentAgain() {
        try (RcPair p = sim.connect(1 << 20, 8, 10)) {
            int[] seen = {0};
            int length = 200 * 4096;
            linkA().drop = v -> v.opcode() == Opcodes.RC_RDMA_WRITE_MIDDLE && ++seen[0] == 2;
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, length)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            WorkCompletion wc = poll(sim, p.a.cq, 100_000);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(-1, p.a.buf.asSlice(0, length).mismatch(p.b.buf.asSlice(0, length)));
        }
    }

    /**
     * Going back to an earlier message also takes back the one still being sent behind it:
     * it starts again after the earlier one, with its first packet at its first PSN; before,
     * it went on from where it was, at the wrong PSNs, and the responder refused it.
     */
    @Test
    void goingBackToAnEarlierMessageRestartsTheOneStillBeingSent() {
        try (RcPair p = sim.connect(1 << 20, 8, 10)) {
            int[] seen = {0};
            int first = 10 * 4096;
            int second = 200 * 4096;
            linkA().drop = v -> v.opcode() == Opcodes.RC_RDMA_WRITE_MIDDLE && ++seen[0] == 2;
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, first)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, first, second)
                    .rdmaWrite(p.b.mr.address() + first, p.b.mr.rkey()));
            for (int wrId = 1; wrId <= 2; wrId++) {
                WorkCompletion wc = poll(sim, p.a.cq, 100_000);
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            }
            assertEquals(-1, p.a.buf.asSlice(0, first + second).mismatch(p.b.buf.asSlice(0, first + second)));
        }
    }

    @Test
    void ackIsRequestedEvery64PacketsAndOnTheLast() {
        try (RcPair p = sim.connect(1 << 20, 8, 10)) {
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 100 * 4096)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status());
            long ackRequests = linkA().sent.stream().filter(x -> x[2] == 1).count();
            assertEquals(2, ackRequests, "packet 64 and packet 100 ask for an ACK");
            assertEquals(2, linkB().count(Opcodes.RC_ACKNOWLEDGE),
                    "each covers more packets than an acknowledgement may be held back for: both go at once");
        }
    }

    /**
     * A responder holds its positive acknowledgement back to its next step, so the reply the
     * application posts in between leaves first (IBTA lets acknowledgements coalesce, and
     * puts no rule on where they go among a responder's own requests).
     */
    @Test
    void anAcknowledgementIsHeldBackOneStepAndFollowsTheReply() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            holdAcksAsAnEngineThreadDoes();
            var engineB = sim.deviceB.engine();
            int before = linkB().sent.size();
            writeAndHoldItsAck(p, 1);

            p.b.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.b.mr, 0, 8)
                    .rdmaWrite(p.a.mr.address(), p.a.mr.rkey()));
            engineB.posted(((SoftQp) p.b.qp).engine, sim.nowNs + 1_000);
            assertEquals(before + 2, linkB().sent.size(), "the posting thread sends the reply and the held ACK");
            assertEquals(Opcodes.RC_RDMA_WRITE_ONLY, linkB().sent.get(before)[0], "the reply first");
            assertEquals(Opcodes.RC_ACKNOWLEDGE, linkB().sent.get(before + 1)[0], "then the acknowledgement");
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
            assertEquals(WcStatus.SUCCESS, poll(sim, p.b.cq, 100).status());
        }
    }

    /**
     * One thread playing both ends: its post of the reply leaves the responder's held
     * acknowledgement, and so does a poll of the requester's device that finds the reply in
     * (the application looks at its reply first); a poll that finds nothing sends it, and
     * steps again to take the answer it drew, so a thread awaiting its send completion waits
     * one poll.
     */
    @Test
    void aPollOfAnotherDeviceSendsTheHeldAcknowledgementOnlyWhenIdle() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            holdAcksAsAnEngineThreadDoes();
            var engineA = sim.deviceA.engine();
            var engineB = sim.deviceB.engine();
            engineA.joinSweep();
            engineB.joinSweep();
            try {
                long now = sim.nowNs;
                writeFromA(p, 1);
                engineA.help(now);
                engineB.help(now);
                int before = linkB().sent.size();
                p.b.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.b.mr, 0, 8)
                        .rdmaWrite(p.a.mr.address(), p.a.mr.rkey()));
                engineB.posted(((SoftQp) p.b.qp).engine, now);
                assertEquals(before + 1, linkB().sent.size(), "the reply, without the acknowledgement: the thread polls A too");
                assertTrue(engineA.help(now) > 0, "the reply is taken");
                assertEquals(before + 1, linkB().sent.size(), "a poll that found work leaves B's acknowledgement held");
                engineA.help(now); // sends A's own held acknowledgement of the reply
                assertEquals(before + 1, linkB().sent.size());
                WorkCompletion wc = new WorkCompletion();
                assertEquals(0, p.a.cq.poll(new WorkCompletion[] {wc}, 1), "no completion yet: nothing acknowledged the WRITE");
                assertTrue(engineA.help(now) > 0, "an idle step sweeps, and steps again to take the acknowledgement");
                assertEquals(before + 2, linkB().sent.size());
                assertEquals(Opcodes.RC_ACKNOWLEDGE, linkB().sent.get(before + 1)[0]);
                assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 1).status(), "the WRITE completed in that poll");
            } finally {
                engineA.leaveSweep();
                engineB.leaveSweep();
            }
        }
    }

    /**
     * An engine that holds acknowledgements back with no thread of its own to step it (caller
     * progress) has them sent by the watch when no step comes: a first look notes the step,
     * a second with no step between sends them; a step between sends them itself.
     */
    @Test
    void aHeldAcknowledgementNoStepSentGoesAtTheSecondLook() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            holdAcksAsAnEngineThreadDoes();
            var engineB = sim.deviceB.engine();
            int before = linkB().sent.size();
            writeAndHoldItsAck(p, 1);
            assertEquals(0, engineB.sendHeldAcksNotStepped(), "a first look only notes the step");
            assertEquals(before, linkB().sent.size());
            assertEquals(1, engineB.sendHeldAcksNotStepped(), "no step since the first look: the second sends it");
            assertEquals(before + 1, linkB().sent.size());
            assertEquals(Opcodes.RC_ACKNOWLEDGE, linkB().sent.get(before)[0]);
            assertEquals(0, engineB.sendHeldAcksNotStepped(), "nothing is held now");
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());

            writeAndHoldItsAck(p, 2);
            assertEquals(0, engineB.sendHeldAcksNotStepped(), "a first look at the second WRITE's ACK");
            engineB.doWork(sim.nowNs);
            assertEquals(before + 2, linkB().sent.size(), "a step between the looks sends it");
            assertEquals(0, engineB.sendHeldAcksNotStepped(), "and the second look has nothing to send");
            assertEquals(before + 2, linkB().sent.size());
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
        }
    }

    /** A's 8-byte WRITE {@code wrId}, one step of each engine: placed at B, whose ACK is held back. */
    private void writeAndHoldItsAck(RcPair p, int wrId) {
        int before = linkB().sent.size();
        writeFromA(p, wrId);
        sim.deviceA.engine().doWork(sim.nowNs);
        sim.deviceB.engine().help(sim.nowNs);
        assertEquals(before, linkB().sent.size(), "the WRITE is placed and its ACK held back");
    }

    private void holdAcksAsAnEngineThreadDoes() {
        sim.deviceA.engine().holdAcks(true);
        sim.deviceB.engine().holdAcks(true);
    }

    /**
     * An engine without a thread of its own (driven by the application's polls, which may
     * stop after the last completion) sends every acknowledgement by the end of the step that
     * drew it.
     */
    @Test
    void anEngineWithoutAThreadSendsItsAcknowledgementsInTheSameStep() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            int before = linkB().sent.size();
            writeFromA(p, 1);
            sim.deviceA.engine().doWork(sim.nowNs);
            sim.deviceB.engine().doWork(sim.nowNs);
            assertEquals(before + 1, linkB().sent.size());
            assertEquals(Opcodes.RC_ACKNOWLEDGE, linkB().sent.get(before)[0]);
        }
    }

    /** An engine driven by the application's polls sends a posted request from the post itself. */
    @Test
    void aPollDrivenEngineSendsARequestFromItsPost() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            int sentBefore = linkA().sent.size();
            writeFromA(p, 1);
            assertEquals(sentBefore, linkA().sent.size(), "an engine with a thread of its own leaves the WRITE to it");
            sim.deviceA.engine().pollDriven(true);
            writeFromA(p, 2);
            assertEquals(sentBefore + 2, linkA().sent.size(), "a poll-driven engine sends both from the post");
            for (int i = 0; i < 2; i++) {
                assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
            }
        }
    }

    /**
     * At a ping-pong's pace (the step before found at most one packet) a step stops after a
     * one-packet request, leaving the next packet to the next step; at a stream's pace it
     * drains the socket.
     */
    @Test
    void atAPingPongsPaceAStepStopsAfterAOnePacketRequest() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            DeviceEngine b = sim.deviceB.engine();
            long in = b.counters().get(Counters.PACKETS_IN);
            twoWritesThenAStepOfB(p, 1);
            assertEquals(in + 2, b.counters().get(Counters.PACKETS_IN), "a stream's pace: both");
            b.doWork(sim.nowNs);
            twoWritesThenAStepOfB(p, 3);
            assertEquals(in + 3, b.counters().get(Counters.PACKETS_IN), "after an empty step, the first WRITE only");
            b.doWork(sim.nowNs);
            assertEquals(in + 4, b.counters().get(Counters.PACKETS_IN), "and the next step takes the second");
            for (int i = 0; i < 4; i++) {
                assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
            }
        }
    }

    /**
     * At a ping-pong's pace a step also stops after a response that completes a signaled
     * request (the application awaits it), but not after one that completes none.
     */
    @Test
    void atAPingPongsPaceAStepStopsAfterAResponseThatCompletesASignaledRequest() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            DeviceEngine a = sim.deviceA.engine();
            long in = a.counters().get(Counters.PACKETS_IN);
            ackThenWriteFromBToA(p, 1, false);
            assertEquals(in + 2, a.counters().get(Counters.PACKETS_IN), "an ACK of an unsignaled WRITE: both");
            ackThenWriteFromBToA(p, 3, true);
            assertEquals(in + 3, a.counters().get(Counters.PACKETS_IN), "an ACK of a signaled WRITE: the ACK only");
            a.doWork(sim.nowNs);
            assertEquals(in + 4, a.counters().get(Counters.PACKETS_IN), "and the next step takes B's WRITE");
            assertEquals(3, poll(sim, p.a.cq, 100).wrId());
            assertEquals(2, poll(sim, p.b.cq, 100).wrId());
            assertEquals(4, poll(sim, p.b.cq, 100).wrId());
        }
    }

    /**
     * An empty step of A (a ping-pong's pace), A's WRITE {@code wrId}, B's acknowledgement of
     * it followed by B's signaled WRITE {@code wrId + 1}, then one step of A.
     */
    private void ackThenWriteFromBToA(RcPair p, int wrId, boolean signaled) {
        DeviceEngine a = sim.deviceA.engine();
        DeviceEngine b = sim.deviceB.engine();
        a.doWork(sim.nowNs);
        p.a.qp.postSend(new SendWorkRequest().wrId(wrId).signaled(signaled).buffer(p.a.mr, 0, 8)
                .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
        a.doWork(sim.nowNs);
        b.doWork(sim.nowNs);
        writeFromB(p, wrId + 1);
        b.doWork(sim.nowNs);
        a.doWork(sim.nowNs);
    }

    /**
     * A step that took one packet at a ping-pong's pace keeps the acknowledgement due at it
     * for one more step (the answer's post may send it); the step after sends it, even when it
     * took one packet too.
     */
    @Test
    void aStepThatTookOnePacketAtAPingPongsPaceKeepsTheDueAcknowledgementOneStep() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            holdAcksAsAnEngineThreadDoes();
            DeviceEngine b = sim.deviceB.engine();
            b.doWork(sim.nowNs);
            for (int wrId = 1; wrId <= 2; wrId++) {
                writeFromA(p, wrId);
                sim.deviceA.engine().doWork(sim.nowNs);
                b.doWork(sim.nowNs);
            }
            assertEquals(0, linkB().count(Opcodes.RC_ACKNOWLEDGE), "the first WRITE's acknowledgement, due at the second's step, is kept");
            writeFromA(p, 3);
            sim.deviceA.engine().doWork(sim.nowNs);
            b.doWork(sim.nowNs);
            assertEquals(1, linkB().count(Opcodes.RC_ACKNOWLEDGE), "the step after sends it");
            for (int wrId = 1; wrId <= 3; wrId++) {
                assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
            }
        }
    }

    /** What one step sends (here four WRITEs) goes to the link in one hold, handed to the network together. */
    @Test
    void aStepSendsItsPacketsInOneHold() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            for (int wrId = 1; wrId <= 4; wrId++) {
                writeFromA(p, wrId);
            }
            int holdsBefore = linkA().holds.size();
            sim.deviceA.engine().doWork(sim.nowNs);
            assertEquals(holdsBefore + 1, linkA().holds.size());
            assertEquals(java.util.Collections.nCopies(4, Opcodes.RC_RDMA_WRITE_ONLY), linkA().holds.get(holdsBefore));
            for (int wrId = 1; wrId <= 4; wrId++) {
                assertEquals(wrId, poll(sim, p.a.cq, 100).wrId());
            }
        }
    }

    /** A post that sends its request itself hands all its packets to the link in one hold, acknowledgements or not. */
    @Test
    void aPostSendsItsPacketsInOneHold() {
        try (RcPair p = sim.connect(1 << 16, 8, new RcOptions().timeout(10).retryCount(7).mtu(Mtu.MTU_1024))) {
            sim.deviceA.engine().pollDriven(true);
            int holdsBefore = linkA().holds.size();
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 4 * 1024)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            assertEquals(java.util.List.of(java.util.List.of(Opcodes.RC_RDMA_WRITE_FIRST, Opcodes.RC_RDMA_WRITE_MIDDLE,
                    Opcodes.RC_RDMA_WRITE_MIDDLE, Opcodes.RC_RDMA_WRITE_LAST)), linkA().holds.subList(holdsBefore, linkA().holds.size()));
            assertEquals(1, poll(sim, p.a.cq, 100).wrId());
        }
    }

    /** A post that sends its request itself sends the acknowledgements held back with it, in one hold of the link. */
    @Test
    void aPostSendsItsRequestAndTheHeldAcknowledgementsInOneHold() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            holdAcksAsAnEngineThreadDoes();
            writeFromA(p, 1);
            sim.deviceA.engine().doWork(sim.nowNs);
            sim.deviceB.engine().doWork(sim.nowNs);
            assertEquals(0, linkB().count(Opcodes.RC_ACKNOWLEDGE), "B holds the WRITE's acknowledgement");
            sim.deviceB.engine().pollDriven(true);
            writeFromB(p, 2);
            assertEquals(java.util.List.of(java.util.List.of(Opcodes.RC_RDMA_WRITE_ONLY, Opcodes.RC_ACKNOWLEDGE)), linkB().holds);
            assertEquals(1, poll(sim, p.a.cq, 100).wrId());
            assertEquals(2, poll(sim, p.b.cq, 100).wrId());
        }
    }

    private static void writeFromB(RcPair p, int wrId) {
        p.b.qp.postSend(new SendWorkRequest().wrId(wrId).signaled(true).buffer(p.b.mr, 0, 8)
                .rdmaWrite(p.a.mr.address(), p.a.mr.rkey()));
    }

    /** A's WRITEs {@code firstWrId} and the next, sent by a step of A, then one step of B. */
    private void twoWritesThenAStepOfB(RcPair p, int firstWrId) {
        writeFromA(p, firstWrId);
        writeFromA(p, firstWrId + 1);
        sim.deviceA.engine().doWork(sim.nowNs);
        sim.deviceB.engine().doWork(sim.nowNs);
    }

    private static void writeFromA(RcPair p, int wrId) {
        p.a.qp.postSend(new SendWorkRequest().wrId(wrId).signaled(true).buffer(p.a.mr, 0, 8)
                .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
    }

    /** Small messages arriving together coalesce into one acknowledgement, of the last of them. */
    @Test
    void acknowledgementsOfSmallMessagesInOneStepCoalesce() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            int before = linkB().sent.size();
            for (int i = 0; i < 4; i++) {
                writeFromA(p, i);
            }
            for (int i = 0; i < 4; i++) {
                assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
            }
            assertEquals(1, linkB().sent.size() - before, "one acknowledgement for four WRITEs");
            assertEquals(Opcodes.RC_ACKNOWLEDGE, linkB().sent.get(before)[0]);
            assertEquals(linkA().sent.get(linkA().sent.size() - 1)[1], linkB().sent.get(before)[1],
                    "it carries the PSN of the last WRITE");
        }
    }

    /**
     * In a stream of messages, an acknowledgement that goes at once (its held predecessor
     * covers as many packets as one may) takes the held one's place instead of following it:
     * four WRITEs of half that many packets each, taken in one step, draw two
     * acknowledgements, of the second and the fourth.
     */
    @Test
    void anAcknowledgementThatGoesAtOnceReplacesTheHeldOne() {
        int mtu = 1024;
        int packets = 16; // half the 32 one held acknowledgement may cover
        try (RcPair p = sim.connect(1 << 17, 8, new RcOptions().timeout(10).retryCount(7).mtu(Mtu.MTU_1024))) {
            int before = linkB().sent.size();
            for (int i = 0; i < 4; i++) {
                long offset = (long) i * packets * mtu;
                p.a.qp.postSend(new SendWorkRequest().wrId(i).signaled(true).buffer(p.a.mr, offset, packets * mtu)
                        .rdmaWrite(p.b.mr.address() + offset, p.b.mr.rkey()));
            }
            int sentBefore = linkA().sent.size();
            sim.deviceA.engine().doWork(sim.nowNs);
            assertEquals(4 * packets, linkA().sent.size() - sentBefore, "one step sends the four WRITEs");
            sim.deviceB.engine().doWork(sim.nowNs);
            List<int[]> acks = linkB().sent.subList(before, linkB().sent.size());
            assertEquals(2, acks.size(), "two acknowledgements for four WRITEs");
            int firstPsn = linkA().sent.get(sentBefore)[1];
            for (int k = 0; k < 2; k++) {
                assertEquals(Opcodes.RC_ACKNOWLEDGE, acks.get(k)[0]);
                assertEquals(Psn.add(firstPsn, (2 * k + 2) * packets - 1), acks.get(k)[1], "of WRITE " + (2 * k + 1));
            }
            for (int i = 0; i < 4; i++) {
                assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
            }
        }
    }

    /**
     * A request executed is acknowledged even when its queue pair then goes to the error
     * state (a disconnect right after the last receive): the held acknowledgement leaves
     * first, so the requester's last request succeeds instead of being flushed.
     */
    @Test
    void aHeldAcknowledgementLeavesBeforeTheQueuePairGoesToError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            holdAcksAsAnEngineThreadDoes();
            int before = linkB().sent.size();
            writeFromA(p, 1);
            sim.deviceA.engine().doWork(sim.nowNs);
            sim.deviceB.engine().doWork(sim.nowNs);
            assertEquals(before, linkB().sent.size(), "held");
            p.b.qp.modify(new QpAttributes().state(QpState.ERR));
            assertEquals(before + 1, linkB().sent.size(), "sent by the move to the error state");
            assertEquals(Opcodes.RC_ACKNOWLEDGE, linkB().sent.get(before)[0]);
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100).status());
        }
    }

    /** With nothing posted in answer, the held acknowledgement leaves on the responder's very next step. */
    @Test
    void aHeldAcknowledgementLeavesOnTheNextStep() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            holdAcksAsAnEngineThreadDoes();
            var engineB = sim.deviceB.engine();
            int before = linkB().sent.size();
            writeFromA(p, 1);
            sim.deviceA.engine().doWork(sim.nowNs);
            assertTrue(engineB.doWork(sim.nowNs) > 0, "a step that holds an acknowledgement back is not idle");
            assertEquals(before, linkB().sent.size());
            engineB.doWork(sim.nowNs);
            assertEquals(before + 1, linkB().sent.size());
            assertEquals(Opcodes.RC_ACKNOWLEDGE, linkB().sent.get(before)[0]);
            assertEquals(0, engineB.doWork(sim.nowNs + 1_000), "then the responder is idle");
        }
    }

    @Test
    void maxRdAtomicOfOneKeepsOneReadInFlight() {
        try (RcPair p = sim.connect(1 << 20, 8, new RcOptions().timeout(10).maxRdAtomic(1))) {
            for (int i = 0; i < 4; i++) {
                p.a.qp.postSend(new SendWorkRequest().wrId(i).signaled(true).buffer(p.a.mr, i * 8192L, 8192)
                        .rdmaRead(p.b.mr.address() + i * 8192L, p.b.mr.rkey()));
            }
            sim.deviceA.engine().doWork(sim.nowNs);
            assertEquals(1, linkA().count(Opcodes.RC_RDMA_READ_REQUEST), "the second read waits for the first's answer");
            for (int i = 0; i < 4; i++) {
                assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status());
            }
            assertEquals(4, linkA().count(Opcodes.RC_RDMA_READ_REQUEST));
        }
    }

    @Test
    void fenceHoldsAWriteUntilTheReadBeforeItIsAnswered() {
        try (RcPair p = sim.connect(1 << 20, 8, 10)) {
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 4096)
                    .rdmaRead(p.b.mr.address(), p.b.mr.rkey()));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).fence(true).buffer(p.a.mr, 8192, 64)
                    .rdmaWrite(p.b.mr.address() + 8192, p.b.mr.rkey()));
            sim.deviceA.engine().doWork(sim.nowNs);
            assertEquals(0, linkA().count(Opcodes.RC_RDMA_WRITE_ONLY), "the fenced write waits");
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status());
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 10_000).status());
            assertEquals(1, linkA().count(Opcodes.RC_RDMA_WRITE_ONLY));
        }
    }

    @Test
    void duplicatedAtomicIsAnsweredFromTheResourceNotExecutedTwice() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            // Lose the first atomic acknowledgement: the requester times out and resends the request.
            int[] acks = {0};
            linkB().drop = v -> v.opcode() == Opcodes.RC_ATOMIC_ACKNOWLEDGE && ++acks[0] == 1;
            p.b.buf.set(ValueLayout.JAVA_LONG, 64, 10);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 8)
                    .fetchAndAdd(p.b.mr.address() + 64, p.b.mr.rkey(), 5));
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq, 100_000).status());
            assertEquals(2, linkA().count(Opcodes.RC_FETCH_ADD), "the request went twice");
            assertEquals(15, p.b.buf.get(ValueLayout.JAVA_LONG, 64), "but was executed once");
            assertEquals(10, p.a.buf.get(ValueLayout.JAVA_LONG, 0), "and the replayed answer is the original value");
        }
    }

    /** Two UD queue pairs at RTS, one on each simulated device, with the Q_Key 0x11111111; closed child first. */
    private record UdPair(DeviceContext ca, DeviceContext cb, ProtectionDomain pa, ProtectionDomain pb, CompletionQueue qa,
                          CompletionQueue qb, QueuePair ua, QueuePair ub) implements AutoCloseable {
        static UdPair open(SimulatedPair sim) {
            DeviceContext ca = sim.deviceA.open();
            DeviceContext cb = sim.deviceB.open();
            ProtectionDomain pa = ca.allocatePd();
            ProtectionDomain pb = cb.allocatePd();
            CompletionQueue qa = ca.createCq(8);
            CompletionQueue qb = cb.createCq(8);
            QueuePair ua = pa.createQp(new QpInitAttributes(QpType.UD, qa));
            QueuePair ub = pb.createQp(new QpInitAttributes(QpType.UD, qb));
            for (QueuePair q : new QueuePair[] {ua, ub}) {
                q.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
                q.modify(new QpAttributes().state(QpState.RTR));
                q.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
            }
            return new UdPair(ca, cb, pa, pb, qa, qb, ua, ub);
        }

        @Override
        public void close() {
            ua.close();
            ub.close();
            qa.close();
            qb.close();
            pa.close();
            pb.close();
            ca.close();
            cb.close();
        }
    }

    /**
     * A UD receive whose scatter entry is another domain's region: class A on UD as on RC
     * (rxe's malformed receive): the receive fails with a local protection error and the
     * queue pair errs, while the datagram's sender, which hears nothing, completes.
     */
    @Test
    void aDatagramForAReceiveOfAnotherDomainsRegionFailsTheReceive() {
        try (Arena arena = Arena.ofShared(); UdPair u = UdPair.open(sim)) {
            MemorySegment sa = arena.allocate(64);
            MemorySegment foreignMemory = arena.allocate(40 + 64);
            ProtectionDomain other = u.cb().allocatePd();
            MemoryRegion ma = u.pa().registerMemory(sa, EnumSet.of(dev.verbs4j.Access.LOCAL_WRITE));
            MemoryRegion foreign = other.registerMemory(foreignMemory, EnumSet.of(dev.verbs4j.Access.LOCAL_WRITE));
            AddressHandle ah = u.pa().createAh(AddressHandleAttributes.to(u.cb().queryGid(1, 0), 0));
            u.ub().postRecv(new ReceiveWorkRequest().wrId(5).buffer(foreign, 0, 40 + 64));
            u.ua().postSend(new SendWorkRequest().wrId(6).signaled(true).buffer(ma, 0, 64).ud(ah, u.ub().qpn(), 0x11111111).send());

            assertEquals(WcStatus.SUCCESS, poll(sim, u.qa(), 1000).status(), "the datagram's send");
            WorkCompletion recv = poll(sim, u.qb(), 1000);
            assertEquals(WcStatus.LOC_PROT_ERR, recv.status(), recv.toString());
            assertEquals(5, recv.wrId());
            assertEquals(QpState.ERR, u.ub().state());
            assertEquals(-1, foreignMemory.mismatch(arena.allocate(40 + 64)), "the other domain's region was not written");
            ah.close();
            ma.close();
            foreign.close();
            other.close();
        }
    }

    @Test
    void unreliableQueuePairsKeepSendingPastTheRcWindowOfUnacknowledgedPsns() {
        try (Arena arena = Arena.ofShared(); UdPair u = UdPair.open(sim)) {
            MemorySegment sa = arena.allocate(64);
            MemorySegment sb = arena.allocate(40 + 64);
            MemoryRegion ma = u.pa().registerMemory(sa, EnumSet.of(dev.verbs4j.Access.LOCAL_WRITE));
            MemoryRegion mb = u.pb().registerMemory(sb, EnumSet.of(dev.verbs4j.Access.LOCAL_WRITE));
            AddressHandle ah = u.pa().createAh(AddressHandleAttributes.to(u.cb().queryGid(1, 0), 0));
            int datagrams = 2 * 128 + 3; // past twice the RC window of 128 unacknowledged PSNs
            for (int i = 0; i < datagrams; i++) {
                u.ub().postRecv(new ReceiveWorkRequest().wrId(i).buffer(mb, 0, 40 + 64));
                u.ua().postSend(new SendWorkRequest().wrId(i).signaled(true).buffer(ma, 0, 64).ud(ah, u.ub().qpn(), 0x11111111).send());
                assertEquals(WcStatus.SUCCESS, poll(sim, u.qa(), 1000).status(), "send " + i + " of " + datagrams);
                assertEquals(i, poll(sim, u.qb(), 1000).wrId(), "datagram " + i + " arrived");
            }
            ah.close();
            ma.close();
            mb.close();
        }
    }

    @Test
    void udDatagramArrivesWithItsGrhAndSourceQpAndAWrongQkeyIsDropped() {
        try (Arena arena = Arena.ofShared(); UdPair u = UdPair.open(sim)) {
            MemorySegment sa = arena.allocate(4096);
            MemorySegment sb = arena.allocate(4096);
            MemoryRegion ma = u.pa().registerMemory(sa, EnumSet.of(dev.verbs4j.Access.LOCAL_WRITE));
            MemoryRegion mb = u.pb().registerMemory(sb, EnumSet.of(dev.verbs4j.Access.LOCAL_WRITE));
            AddressHandle ah = u.pa().createAh(AddressHandleAttributes.to(u.cb().queryGid(1, 0), 0));
            sa.asSlice(0, 200).fill((byte) 0x33);
            sim.step();
            u.ub().postRecv(new ReceiveWorkRequest().wrId(4).buffer(mb, 0, 40 + 200));
            u.ua().postSend(new SendWorkRequest().wrId(3).signaled(true).buffer(ma, 0, 200).ud(ah, u.ub().qpn(), 0x22222222).sendWithImm(8));
            u.ua().postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(ma, 0, 200).ud(ah, u.ub().qpn(), 0x11111111).sendWithImm(9));
            WorkCompletion[] one = {new WorkCompletion()};
            WorkCompletion got = new WorkCompletion();
            assertTrue(sim.runUntil(() -> u.qb().poll(one) == 1 && got.copyFrom(one[0]) != null, 1000));
            assertEquals(WcStatus.SUCCESS, got.status());
            assertEquals(WcOpcode.RECV, got.opcode());
            assertEquals(240, got.byteLength(), "40 bytes of GRH, then the payload");
            assertEquals(9, got.immData(), "the datagram with the wrong Q_Key was dropped");
            assertEquals(u.ua().qpn(), got.srcQp());
            assertTrue(WcFlag.GRH.isSet(got.flags()));
            assertEquals(0x45, sb.get(ValueLayout.JAVA_BYTE, 20) & 0xff, "the IPv4 header sits in the GRH's last 20 bytes");
            assertEquals((byte) 0x33, sb.get(ValueLayout.JAVA_BYTE, 40 + 199));
            assertTrue(((SoftQp) u.ub()).engine.counters().get(Counters.DROP_QKEY) == 1);
            ah.close();
            ma.close();
            mb.close();
        }
    }
}
