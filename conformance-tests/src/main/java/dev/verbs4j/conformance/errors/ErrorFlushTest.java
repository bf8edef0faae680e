package dev.verbs4j.conformance.errors;

import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A queue pair in the error state completes every outstanding request, send and
 * receive, with IBV_WC_WR_FLUSH_ERR, in posting order and with their wrIds, and so
 * does every request posted to it afterwards (IBTA 10.3.1, 11.4.2.1).
 */
@ConformanceSuite
class ErrorFlushTest {

    @Test
    void requestsBehindAFailedOneFlush(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(256);
        Buffer target = pair.remote().buffer(256);
        Buffer receives = pair.local().buffer(256);
        for (int i = 0; i < 3; i++) {
            pair.local().postRecv(300 + i, receives, 64L * i, 64);
        }

        pair.local().qp().postSend(new SendWorkRequest().wrId(260).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(0), ~target.rkey()));
        for (int i = 1; i <= 3; i++) {
            pair.local().qp().postSend(new SendWorkRequest().wrId(260 + i).signaled(true).buffer(source.region(), 0, 64)
                    .rdmaWrite(target.remoteAddress(64), target.rkey()));
        }

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the failing write"), "write with a bad rkey");
        for (int i = 1; i <= 3; i++) {
            WorkCompletion wc = Expect.status(WcStatus.WR_FLUSH_ERR, Completions.next(pair.local().sendCq(), "request " + i
                    + " behind the failed one"), "request " + i + " behind a failed request");
            assertEquals(260 + i, wc.wrId(), "flushed requests complete in posting order");
        }
        for (int i = 0; i < 3; i++) {
            WorkCompletion wc = Expect.status(WcStatus.WR_FLUSH_ERR, Completions.next(pair.local().recvCq(), "posted receive " + i),
                    "receive posted on the failed queue pair");
            assertEquals(300 + i, wc.wrId(), "flushed receives complete in posting order");
        }
        assertEquals(QpState.ERR, QpStates.query(pair.local().qp()), "state of the requester after a failed request");
    }

    @Test
    void receivesFlushWhenMovedToError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer receives = pair.remote().buffer(256);
        for (int i = 0; i < 3; i++) {
            pair.remote().postRecv(310 + i, receives, 64L * i, 64);
        }

        pair.remote().qp().modify(new QpAttributes().state(QpState.ERR));

        for (int i = 0; i < 3; i++) {
            WorkCompletion wc = Expect.status(WcStatus.WR_FLUSH_ERR, Completions.next(pair.remote().recvCq(), "posted receive " + i),
                    "receive of a queue pair moved to ERROR");
            assertEquals(310 + i, wc.wrId(), "flushed receives complete in posting order");
        }
    }

    @Test
    void sendPostedInErrorStateFlushes(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(64);
        pair.local().qp().modify(new QpAttributes().state(QpState.ERR));

        pair.local().qp().postSend(new SendWorkRequest().wrId(270).signaled(true).buffer(source.region(), 0, 64).send());

        WorkCompletion wc = Expect.status(WcStatus.WR_FLUSH_ERR, Completions.next(pair.local().sendCq(), "a send posted in ERROR"),
                "send posted to a queue pair in ERROR");
        assertEquals(270, wc.wrId(), "wrId of the flushed send");
    }
}
