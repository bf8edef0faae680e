package dev.verbs4j.conformance.errors;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A message longer than the receive that takes it: the responder completes the receive
 * with a local length error and NAKs "invalid request", so the sender sees
 * IBV_WC_REM_INV_REQ_ERR (IBTA 9.7.5.1.x class C; how mlx5 reports it). The kernel rxe
 * completes that receive with IBV_WC_REM_INV_REQ_ERR instead ({@code RESPST_ERR_LENGTH}
 * sets the receive's status to the NAK's), which this case reports as a failure.
 */
@ConformanceSuite
class ReceiveLengthTest {

    @Test
    void receiveTooSmallFailsBothSides(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(256);
        Buffer sink = pair.remote().buffer(256);
        pair.remote().postRecv(321, sink, 0, 64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(280).signaled(true).buffer(source.region(), 0, 65).send());

        Expect.status(WcStatus.REM_INV_REQ_ERR, Completions.next(pair.local().sendCq(), "a send longer than the receive"),
                "sender of 65 bytes into a 64-byte receive");
        WorkCompletion recv = Expect.status(WcStatus.LOC_LEN_ERR, Completions.next(pair.remote().recvCq(), "the too-small receive"),
                "64-byte receive given 65 bytes");
        assertEquals(321, recv.wrId(), "wrId of the failed receive");
    }
}
