package dev.verbs4j.conformance.errors;

import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

/**
 * A peer that never answers: the requester retransmits after each local ACK timeout,
 * {@code retry_cnt} times, then completes with IBV_WC_RETRY_EXC_ERR (IBTA 9.7.6.1.3).
 * A responder that is gone, in RESET or in ERROR drops requests silently. The cases use
 * timeout code 8 (about 1 ms) and one retry so they end quickly.
 */
@ConformanceSuite
class RetryExhaustionTest {

    private static void expectRetryExceeded(Testbed bed, Consumer<RcPair> silencePeer, String peer) {
        Require.infinibandTransport(bed, "retry count or local ACK timeout: iWARP leaves retransmission to TCP");
        RcPair pair = bed.rcPair(new RcSpec().retries(8, 1));
        Buffer source = pair.local().buffer(64);
        Buffer target = pair.remote().buffer(64);
        silencePeer.accept(pair);

        pair.local().qp().postSend(new SendWorkRequest().wrId(251).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.status(WcStatus.RETRY_EXC_ERR, Completions.next(pair.local().sendCq(), "a write to a " + peer),
                "write to a " + peer + " with timeout 8 and retry_cnt 1");
    }

    @Test
    void destroyedPeerEndsInRetryExceeded(Testbed bed) {
        expectRetryExceeded(bed, pair -> bed.closeNow(pair.remote().qp()), "destroyed peer queue pair");
    }

    @Test
    void peerInResetEndsInRetryExceeded(Testbed bed) {
        expectRetryExceeded(bed, pair -> pair.remote().qp().modify(new QpAttributes().state(QpState.RESET)),
                "peer queue pair in RESET");
    }

    @Test
    void peerInErrorEndsInRetryExceeded(Testbed bed) {
        expectRetryExceeded(bed, pair -> pair.remote().qp().modify(new QpAttributes().state(QpState.ERR)),
                "peer queue pair in ERROR");
    }
}
