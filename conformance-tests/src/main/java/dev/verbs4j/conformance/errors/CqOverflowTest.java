package dev.verbs4j.conformance.errors;

import dev.verbs4j.AsyncEventType;
import dev.verbs4j.QpState;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

/**
 * Completion queue overflow (IBTA 11.4.2.1, class G in rxe): when a receive completes
 * into a full queue, the queue pair goes to the error state and the device raises a
 * CQ_ERR asynchronous event (the kernel's {@code rxe_cq_post}).
 */
@ConformanceSuite
class CqOverflowTest {

    /** Fills the remote receive queue's CQ past its capacity without polling it. */
    private static RcPair overflow(Testbed bed) {
        // A queue may hold more than asked for: learn how many entries one-entry queues get here.
        int messages = bed.cq(bed.remote(), 1).capacity() + 1;
        RcPair pair = bed.rcPair(new RcSpec().remoteRecvCqEntries(1).queueDepth(messages + 1, messages + 1));
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(64L * messages);
        for (int i = 0; i < messages; i++) {
            pair.remote().postRecv(i, sink, 64L * i, 64);
        }
        QpStates.drainAsyncEvents(pair.remote().side().context());
        for (int i = 0; i < messages; i++) {
            pair.local().qp().postSend(new SendWorkRequest().wrId(i).signaled(false).buffer(source.region(), 0, 8).send());
        }
        return pair;
    }

    @Test
    void overflowMovesQueuePairToError(Testbed bed) {
        RcPair pair = overflow(bed);

        QpStates.await(pair.remote().qp(), QpState.ERR, "receiving queue pair after its CQ overflowed");
    }

    @Test
    void overflowRaisesCqErrEvent(Testbed bed) {
        RcPair pair = overflow(bed);

        QpStates.awaitAsyncEvent(pair.remote().side().context(), AsyncEventType.CQ_ERR, "the overflowed receive CQ");
    }
}
