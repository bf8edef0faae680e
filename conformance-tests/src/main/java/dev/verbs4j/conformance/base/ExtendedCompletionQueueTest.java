package dev.verbs4j.conformance.base;

import dev.verbs4j.CqCreateFlag;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcField;
import dev.verbs4j.WcFlag;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.ExtendedCompletion;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import dev.verbs4j.conformance.fixture.UdPair;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Extended completion queues ({@code ibv_create_cq_ex}): created with the fields their
 * completions report, polled as a cursor ({@code ibv_start_poll}, {@code ibv_next_poll},
 * {@code ibv_end_poll}) whose readers give each field of the current completion, on RC and
 * UD traffic alike. A field or flag the device cannot provide is refused with EOPNOTSUPP.
 */
@ConformanceSuite
class ExtendedCompletionQueueTest {
    private static final int MESSAGE = 300;

    @Test
    void everyFieldAndFlagCreatesOrIsRefusedAsUnsupported(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        bed.extendedCq(bed.local(), 1, Set.of()); // skips where the device has no extended queues at all
        for (WcField field : WcField.values()) {
            createOrRefuse(ctx, Set.of(field), Set.of(), field.toString());
        }
        for (CqCreateFlag flag : CqCreateFlag.values()) {
            createOrRefuse(ctx, Set.of(), Set.of(flag), flag.toString());
        }
        try (ExtendedCompletionQueue cq = ctx.createExtendedCq(10, null, 0, WcField.STANDARD, Set.of())) {
            assertEquals(WcField.STANDARD, cq.fields(), "the fields of a queue made with IBV_WC_STANDARD_FLAGS");
            assertTrue(cq.capacity() >= 10, "a queue asked for 10 entries has " + cq.capacity());
        }
    }

    private static void createOrRefuse(DeviceContext ctx, Set<WcField> fields, Set<CqCreateFlag> flags, String what) {
        try (ExtendedCompletionQueue cq = ctx.createExtendedCq(10, null, 0, fields, flags)) {
            assertEquals(fields, cq.fields(), "the fields of a queue made with " + what);
        } catch (VerbsException e) {
            assertEquals(Errno.EOPNOTSUPP, e.error(), "a queue with " + what + " is made, or refused as unsupported: " + e);
        }
    }

    @Test
    void queueLargerThanTheDeviceAllowsOrOnAMissingVectorFailsWithEinval(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int max = bed.local().attributes().maxCqe();
        bed.extendedCq(bed.local(), 1, Set.of());
        Expect.errno(Errno.EINVAL, () -> ctx.createExtendedCq(max + 1, null, 0, Set.of(), Set.of()),
                "an extended queue of max_cqe + 1 = " + (max + 1) + " entries");
        int vectors = ctx.completionVectorCount();
        Expect.errno(Errno.EINVAL, () -> ctx.createExtendedCq(10, null, vectors + 1, Set.of(), Set.of()),
                "an extended queue on vector " + (vectors + 1) + " of " + vectors);
    }

    @Test
    void rcTrafficReadsEveryStandardFieldOfEachCompletion(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().localExtendedCqs(WcField.STANDARD));
        ExtendedCompletionQueue sendCq = (ExtendedCompletionQueue) pair.local().sendCq();
        ExtendedCompletionQueue recvCq = (ExtendedCompletionQueue) pair.local().recvCq();
        Buffer source = pair.remote().buffer(3 * MESSAGE);
        Buffer sink = pair.local().buffer(3 * MESSAGE);
        Buffer outgoing = pair.local().buffer(MESSAGE);
        for (int i = 0; i < 3; i++) {
            pair.local().postRecv(70 + i, sink, (long) i * MESSAGE, MESSAGE);
        }
        pair.remote().postRecv(80, pair.remote().buffer(MESSAGE), 0, MESSAGE);

        for (int i = 0; i < 3; i++) {
            SendWorkRequest wr = new SendWorkRequest().wrId(10 + i).signaled(true).buffer(source.region(), (long) i * MESSAGE, 100 + i);
            pair.remote().qp().postSend(i == 1 ? wr.sendWithImm(0x0a0b0c0d + i) : wr.send());
        }
        Completions.next(pair.remote().sendCq(), 3, "the peer's three sends");
        pair.local().qp().postSend(new SendWorkRequest().wrId(20).signaled(true).buffer(outgoing.region(), 0, 64).send());

        List<ExtendedCompletion> receives = ExtendedCompletion.next(recvCq, 3, "three receives read in one poll");
        for (int i = 0; i < 3; i++) {
            ExtendedCompletion recv = receives.get(i);
            assertEquals(70 + i, recv.wrId(), "receives complete in posting order: " + recv);
            assertEquals(WcStatus.SUCCESS, recv.status(), "receive " + i + ": " + recv);
            assertEquals(WcOpcode.RECV, recv.opcode(), "receive " + i + ": " + recv);
            assertEquals(100 + i, recv.byteLength(), "byte_len of receive " + i);
            assertEquals(pair.local().qp().qpn(), recv.qpNum(), "qp_num of receive " + i);
            assertEquals(i == 1, WcFlag.WITH_IMM.isSet(recv.wcFlags()), "IBV_WC_WITH_IMM on receive " + i + ": " + recv);
            if (i == 1) {
                assertEquals(0x0a0b0c0d + i, recv.immData(), "the immediate data, in host order");
            }
        }
        ExtendedCompletion send = ExtendedCompletion.next(sendCq, "the local send");
        assertEquals(20, send.wrId(), "the send's wr_id");
        assertEquals(WcStatus.SUCCESS, send.status(), "the send: " + send);
        assertEquals(WcOpcode.SEND, send.opcode(), "the send: " + send);
        assertEquals(pair.local().qp().qpn(), send.qpNum(), "qp_num of the send");
        assertFalse(sendCq.startPoll(), "every completion was consumed by its poll");
    }

    @Test
    void udReceiveReportsTheSenderAndTheGrh(Testbed bed) {
        UdPair pair = bed.udPair(WcField.STANDARD);
        ExtendedCompletionQueue recvCq = (ExtendedCompletionQueue) pair.local().recvCq();
        Buffer source = bed.buffer(pair.remote().pd(), MESSAGE, Buffer.allRemoteAccess());
        Buffer sink = bed.buffer(pair.local().pd(), UdPair.GRH_BYTES + 1024, Buffer.allRemoteAccess());
        pair.local().qp().postRecv(new ReceiveWorkRequest().wrId(31).buffer(sink.region(), 0, (int) sink.length()));

        pair.remote().qp().postSend(new SendWorkRequest().wrId(32).signaled(true).buffer(source.region(), 0, MESSAGE).send()
                .ud(pair.remote().toPeer(), pair.local().qp().qpn(), pair.qkey()));
        Expect.success(WcOpcode.SEND, 32, Completions.next(pair.remote().sendCq(), "the UD send"), "send completion");

        ExtendedCompletion recv = ExtendedCompletion.next(recvCq, "the UD receive");
        assertEquals(31, recv.wrId(), "the receive's wr_id");
        assertEquals(WcStatus.SUCCESS, recv.status(), "the receive: " + recv);
        assertEquals(UdPair.GRH_BYTES + MESSAGE, recv.byteLength(), "byte_len counts the 40-byte GRH");
        assertTrue(WcFlag.GRH.isSet(recv.wcFlags()), "IBV_WC_GRH is set: " + recv);
        assertEquals(pair.remote().qp().qpn(), recv.srcQp(), "src_qp names the sending QP");
        assertEquals(pair.local().qp().qpn(), recv.qpNum(), "qp_num names the receiving QP");
    }

    @Test
    void readersOutsideAPollOrOfFieldsNotAskedForAreRefused(Testbed bed) {
        ExtendedCompletionQueue cq = bed.extendedCq(bed.local(), 16, EnumSet.of(WcField.BYTE_LEN));
        assertThrows(IllegalStateException.class, cq::wrId, "wr_id with no poll open");
        assertThrows(IllegalStateException.class, cq::nextPoll, "next_poll with no poll open");
        assertThrows(IllegalStateException.class, cq::endPoll, "end_poll with no poll open");
        assertFalse(cq.startPoll(), "an empty queue opens no poll");
        assertThrows(IllegalStateException.class, cq::status, "status after a poll that found nothing");

        RcPair pair = bed.rcPair(new RcSpec().localExtendedCqs(EnumSet.of(WcField.BYTE_LEN)));
        ExtendedCompletionQueue sendCq = (ExtendedCompletionQueue) pair.local().sendCq();
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(64);
        pair.remote().postRecv(1, sink, 0, 64);
        pair.local().qp().postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(source.region(), 0, 64).send());
        Completions.next(pair.remote().recvCq(), "the receive");
        long deadline = System.nanoTime() + Completions.timeout().toNanos();
        while (!sendCq.startPoll()) {
            assertTrue(System.nanoTime() - deadline < 0, "no send completion within " + Completions.timeout());
            Thread.onSpinWait();
        }
        try {
            assertEquals(2, sendCq.wrId(), "the send's wr_id");
            assertEquals(64, sendCq.byteLength(), "the field asked for reads");
            assertThrows(IllegalStateException.class, sendCq::qpNum, "qp_num of a queue made without it");
            assertThrows(IllegalStateException.class, sendCq::immData, "imm_data of a queue made without it");
            assertThrows(IllegalStateException.class, sendCq::startPoll, "a second start_poll in the same thread");
            assertThrows(IllegalStateException.class, () -> sendCq.poll(new dev.verbs4j.WorkCompletion[1]),
                    "poll_cq while this thread has a poll open");
        } finally {
            sendCq.endPoll();
        }
    }

    @Test
    void completionTimestampsCountTheDeviceClock(Testbed bed) {
        DeviceAttributes attributes = bed.local().attributes();
        Set<WcField> fields = EnumSet.of(WcField.COMPLETION_TIMESTAMP, WcField.COMPLETION_TIMESTAMP_WALLCLOCK);
        RcPair pair = Require.supportedAtCreation("completions with timestamps (IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)",
                () -> bed.rcPair(new RcSpec().localExtendedCqs(fields)));
        assertTrue(attributes.hcaCoreClockKhz() > 0, "a device that stamps completions reports its clock: " + attributes);
        assertTrue(attributes.completionTimestampMask() != 0, "a device that stamps completions reports the stamp's bits");
        ExtendedCompletionQueue sendCq = (ExtendedCompletionQueue) pair.local().sendCq();
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(2 * 64);
        pair.remote().postRecv(1, sink, 0, 64);
        pair.remote().postRecv(2, sink, 64, 64);

        Instant before = Instant.now();
        pair.local().qp().postSend(new SendWorkRequest().wrId(5).signaled(true).buffer(source.region(), 0, 64).send());
        ExtendedCompletion first = ExtendedCompletion.next(sendCq, "the first send");
        pair.local().qp().postSend(new SendWorkRequest().wrId(6).signaled(true).buffer(source.region(), 0, 64).send());
        ExtendedCompletion second = ExtendedCompletion.next(sendCq, "the second send");
        Instant after = Instant.now();

        long mask = attributes.completionTimestampMask();
        long forward = (second.timestamp() - first.timestamp()) & mask;
        assertTrue(Long.compareUnsigned(forward, mask >>> 1) < 0,
                "the device clock runs forward, modulo its mask: " + first.timestamp() + " then " + second.timestamp());
        long slackNs = 5_000_000;
        long fromNs = before.getEpochSecond() * 1_000_000_000L + before.getNano() - slackNs;
        long toNs = after.getEpochSecond() * 1_000_000_000L + after.getNano() + slackNs;
        for (ExtendedCompletion wc : List.of(first, second)) {
            assertTrue(wc.wallclockNs() >= fromNs && wc.wallclockNs() <= toNs,
                    "the wall-clock stamp " + wc.wallclockNs() + " lies between posting and polling: " + fromNs + ".." + toNs);
        }
    }
}
