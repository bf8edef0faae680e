package dev.verbs4j.conformance.base;

import dev.verbs4j.AsyncEventType;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.Errno;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A queue pair with a shared receive queue takes its receives from the SRQ, oldest first;
 * an armed limit raises {@code IBV_EVENT_SRQ_LIMIT_REACHED} once fewer receives remain.
 * Resizing one ({@code ibv_modify_srq} with {@code IBV_SRQ_MAX_WR}) keeps the receives
 * posted to it.
 */
@ConformanceSuite
class SharedReceiveQueueTest {

    @Test
    void sendConsumesReceivesFromSharedQueueInPostingOrder(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().remoteSrq());
        Buffer source = pair.local().buffer(3 * 512);
        Buffer sink = pair.remote().buffer(3 * 512);
        Bytes.fill(source.memory(), 21);
        for (int i = 0; i < 3; i++) {
            pair.remote().postRecv(90 + i, sink, i * 512L, 512);
        }

        for (int i = 0; i < 3; i++) {
            pair.local().qp().postSend(new SendWorkRequest().wrId(40 + i).signaled(true)
                    .buffer(source.region(), i * 512L, 100 + i).send());
        }

        for (int i = 0; i < 3; i++) {
            Expect.success(WcOpcode.SEND, 40 + i, Completions.next(pair.local().sendCq(), "send " + i), "send " + i);
        }
        for (int i = 0; i < 3; i++) {
            WorkCompletion recv = Expect.success(WcOpcode.RECV, 90 + i, Completions.next(pair.remote().recvCq(), "receive " + i),
                    "receive " + i + " (SRQ receives are consumed in posting order)");
            assertEquals(100 + i, recv.byteLength(), "byte_len of receive " + i);
            assertEquals(pair.remote().qp().qpn(), recv.qpNum(), "qp_num names the queue pair that took the SRQ receive");
            Bytes.assertSame(source.slice(i * 512L, 100 + i), sink.slice(i * 512L, 100 + i), "message " + i);
        }
    }

    @Test
    void armedLimitRaisesEventWhenFewerReceivesRemain(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().remoteSrq());
        SharedReceiveQueue srq = pair.remote().srq();
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(10 * 64);
        QpStates.drainAsyncEvents(pair.remote().side().context());
        for (int i = 0; i < 10; i++) {
            pair.remote().postRecv(120 + i, sink, i * 64L, 64);
        }

        srq.armLimit(7);
        assertEquals(7, Require.supported("ibv_query_srq on " + pair.remote().side(), srq::limit), "srq_limit after arming it");
        for (int i = 0; i < 4; i++) {
            pair.local().qp().postSend(new SendWorkRequest().wrId(60 + i).signaled(true).buffer(source.region(), 0, 16).send());
            Expect.success(WcOpcode.SEND, 60 + i, Completions.next(pair.local().sendCq(), "send " + i), "send " + i);
            Expect.success(WcOpcode.RECV, 120 + i, Completions.next(pair.remote().recvCq(), "receive " + i), "receive " + i);
        }

        QpStates.awaitAsyncEvent(pair.remote().side().context(), AsyncEventType.SRQ_LIMIT_REACHED,
                "6 receives left in a shared receive queue armed at 7");
    }

    @Test
    void resizeGrowsTheQueueAndKeepsThePostedReceives(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.SRQ_RESIZE);
        RcPair pair = bed.rcPair(new RcSpec().remoteSrq());
        SharedReceiveQueue srq = pair.remote().srq();
        DeviceAttributes device = pair.remote().side().attributes();
        Buffer source = pair.local().buffer(64);
        int posted = 3;
        int wanted = Math.min(device.maxSrqWr(), srq.maxWr() * 2);
        Buffer sink = pair.remote().buffer((long) wanted * 64);
        for (int i = 0; i < posted; i++) {
            pair.remote().postRecv(200 + i, sink, i * 64L, 64);
        }

        srq.resize(wanted);
        assertTrue(srq.maxWr() >= wanted, "an SRQ resized to " + wanted + " receives holds " + srq.maxWr());
        for (int i = posted; i < wanted; i++) {
            pair.remote().postRecv(200 + i, sink, i * 64L, 64);
        }
        for (int i = 0; i < posted + 1; i++) {
            pair.local().qp().postSend(new SendWorkRequest().wrId(i).signaled(true).buffer(source.region(), 0, 10 + i).send());
            Expect.success(WcOpcode.SEND, i, Completions.next(pair.local().sendCq(), "send " + i), "send " + i);
            WorkCompletion recv = Expect.success(WcOpcode.RECV, 200 + i, Completions.next(pair.remote().recvCq(), "receive " + i),
                    "receive " + i + " (those posted before the resize come first, in order)");
            assertEquals(10 + i, recv.byteLength(), "byte_len of receive " + i);
        }
    }

    @Test
    void resizePastTheDeviceLimitOrBelowTheArmedLimitFailsWithEinval(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.SRQ_RESIZE);
        RcPair pair = bed.rcPair(new RcSpec().remoteSrq());
        SharedReceiveQueue srq = pair.remote().srq();
        int max = pair.remote().side().attributes().maxSrqWr();
        Expect.errno(Errno.EINVAL, () -> srq.resize(max + 1), "resizing an SRQ past max_srq_wr, to " + (max + 1));
        srq.armLimit(10);
        Expect.errno(Errno.EINVAL, () -> srq.resize(5), "resizing to 5 receives an SRQ armed at a limit of 10");
        assertEquals(10, srq.limit(), "a refused resize leaves the armed limit");
    }
}
