package dev.verbs4j.conformance.base;

import dev.verbs4j.AsyncEventType;
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
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A queue pair with a shared receive queue takes its receives from the SRQ, oldest first;
 * an armed limit raises {@code IBV_EVENT_SRQ_LIMIT_REACHED} once fewer receives remain.
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
        assertEquals(7, srq.limit(), "srq_limit after arming it");
        for (int i = 0; i < 4; i++) {
            pair.local().qp().postSend(new SendWorkRequest().wrId(60 + i).signaled(true).buffer(source.region(), 0, 16).send());
            Expect.success(WcOpcode.SEND, 60 + i, Completions.next(pair.local().sendCq(), "send " + i), "send " + i);
            Expect.success(WcOpcode.RECV, 120 + i, Completions.next(pair.remote().recvCq(), "receive " + i), "receive " + i);
        }

        QpStates.awaitAsyncEvent(pair.remote().side().context(), AsyncEventType.SRQ_LIMIT_REACHED,
                "6 receives left in a shared receive queue armed at 7");
    }
}
