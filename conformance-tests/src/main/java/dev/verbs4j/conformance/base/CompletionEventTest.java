package dev.verbs4j.conformance.base;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Completion channels: an armed queue raises one event for its next completion; armed
 * solicited-only, it stays quiet for unsolicited messages and wakes for the next
 * solicited one (ibv_req_notify_cq(3)).
 */
@ConformanceSuite
class CompletionEventTest {
    private static final Duration QUIET = Duration.ofMillis(150);

    @Test
    void armedQueueRaisesEventForNextCompletion(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().remoteRecvChannel());
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(64);
        pair.remote().postRecv(121, sink, 0, 64);
        pair.remote().recvCq().requestNotify(false);

        pair.local().qp().postSend(new SendWorkRequest().wrId(101).signaled(true).buffer(source.region(), 0, 10).send());

        Completions.awaitEvent(pair.remote().recvChannel(), pair.remote().recvCq(), "the armed receive queue");
        Expect.success(WcOpcode.RECV, 121, Completions.next(pair.remote().recvCq(), "the receive after the event"), "receive");
        Expect.success(WcOpcode.SEND, 101, Completions.next(pair.local().sendCq(), "the send"), "send");
    }

    @Test
    void solicitedOnlyArmWakesOnlyForSolicitedSend(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().remoteRecvChannel());
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(128);
        pair.remote().postRecv(122, sink, 0, 64);
        pair.remote().postRecv(123, sink, 64, 64);
        pair.remote().recvCq().requestNotify(true);

        pair.local().qp().postSend(new SendWorkRequest().wrId(102).signaled(true).buffer(source.region(), 0, 8).send());
        // The send completes once the peer acknowledged it, i.e. after its receive completed.
        Expect.success(WcOpcode.SEND, 102, Completions.next(pair.local().sendCq(), "the unsolicited send"), "send");
        Optional<?> early = pair.remote().recvChannel().awaitEvent(QUIET);
        assertEquals(Optional.empty(), early, "no event for an unsolicited message on a solicited-only arm");
        Expect.success(WcOpcode.RECV, 122, Completions.next(pair.remote().recvCq(), "the unsolicited receive"), "receive");

        pair.local().qp().postSend(new SendWorkRequest().wrId(103).signaled(true).solicited(true)
                .buffer(source.region(), 0, 8).send());

        Completions.awaitEvent(pair.remote().recvChannel(), pair.remote().recvCq(), "the solicited message");
        Expect.success(WcOpcode.RECV, 123, Completions.next(pair.remote().recvCq(), "the solicited receive"), "receive");
        Expect.success(WcOpcode.SEND, 103, Completions.next(pair.local().sendCq(), "the solicited send"), "send");
    }
}
