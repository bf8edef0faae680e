package dev.verbs4j.conformance.errors;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * Receiver Not Ready: a SEND that finds no receive is RNR-NAKed; the requester retries
 * {@code rnr_retry} times (7 = forever) after the responder's RNR timer, then fails with
 * IBV_WC_RNR_RETRY_EXC_ERR (IBTA 9.7.5.2.8).
 */
@ConformanceSuite
class RnrTest {

    @Test
    void sendWithoutReceiveAndNoRnrRetriesFails(Testbed bed) {
        Require.infinibandTransport(bed, "RNR NAK: a send without a receive ends the iWARP stream");
        RcPair pair = bed.rcPair(new RcSpec().rnrRetry(0).minRnrTimer(1));
        Buffer source = pair.local().buffer(64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(231).signaled(true).buffer(source.region(), 0, 64).send());

        Expect.status(WcStatus.RNR_RETRY_EXC_ERR, Completions.next(pair.local().sendCq(), "a send to an empty receive queue"),
                "send with rnr_retry 0 and no receive posted");
    }

    @Test
    void sendWaitsForReceivePostedLaterWhenRetryingForever(Testbed bed) {
        Require.infinibandTransport(bed, "RNR NAK: a send without a receive ends the iWARP stream");
        RcPair pair = bed.rcPair(new RcSpec().rnrRetry(7).minRnrTimer(1));
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(64);
        Bytes.fill(source.memory(), 9);

        pair.local().qp().postSend(new SendWorkRequest().wrId(232).signaled(true).buffer(source.region(), 0, 64).send());
        Completions.assertNone(pair.local().sendCq(), Duration.ofMillis(100),
                "with rnr_retry 7 a send must not complete while the peer has no receive");
        pair.remote().postRecv(241, sink, 0, 64);

        Expect.success(WcOpcode.SEND, 232, Completions.next(pair.local().sendCq(), "the send once a receive exists"), "send");
        Expect.success(WcOpcode.RECV, 241, Completions.next(pair.remote().recvCq(), "the late receive"), "receive");
        Bytes.assertSame(source.memory(), sink.memory(), "received bytes");
    }
}
