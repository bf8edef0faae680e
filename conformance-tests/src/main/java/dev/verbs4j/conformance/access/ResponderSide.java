package dev.verbs4j.conformance.access;

import dev.verbs4j.QpState;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.RcEnd;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the responder shows after a request: two receives are posted before it, so a
 * request that consumes one, an error that fails one, and a queue pair that goes to the
 * error state and flushes the rest are all visible. A responder completes a receive
 * before it acknowledges the request, so once the requester's completion is in, any
 * receive completion is too.
 */
final class ResponderSide {
    static final long FIRST_RECEIVE = 0xE1;
    static final long SECOND_RECEIVE = 0xE2;
    private static final int RECEIVE_BYTES = 256;

    private final RcEnd end;

    ResponderSide(RcEnd end) {
        this.end = end;
        Buffer sink = end.buffer(2 * RECEIVE_BYTES);
        end.postRecv(FIRST_RECEIVE, sink, 0, RECEIVE_BYTES);
        end.postRecv(SECOND_RECEIVE, sink, RECEIVE_BYTES, RECEIVE_BYTES);
    }

    /** The responder took no receive and stays at RTS. */
    void assertUntouched(String what) {
        Completions.assertNone(end.recvCq(), Duration.ZERO, what + ": the responder completes no receive");
        assertEquals(QpState.RTS, QpStates.query(end.qp()), what + ": the responder's queue pair state");
    }

    /** The request consumed the first receive, which completed with {@code opcode}; the responder stays at RTS. */
    WorkCompletion assertConsumed(WcOpcode opcode, String what) {
        WorkCompletion wc = Expect.success(opcode, FIRST_RECEIVE, Completions.next(end.recvCq(), "the responder's receive"),
                what + ": the receive the request consumed");
        assertUntouched(what + ", after its receive");
        return wc;
    }

    /**
     * The responder moved to the error state: the receive the request consumed, if any,
     * failed with {@code consumedStatus}; the others flushed with WR_FLUSH_ERR.
     */
    void assertFailed(WcStatus consumedStatus, String what) {
        // The receive first: a responder that did not fail completes it at once, and says so
        // sooner than a wait for a state it will not reach.
        WorkCompletion first = Completions.next(end.recvCq(), "the responder's first receive");
        Expect.status(consumedStatus == null ? WcStatus.WR_FLUSH_ERR : consumedStatus, first,
                what + (consumedStatus == null ? ": the first receive, flushed" : ": the receive the request consumed"));
        assertEquals(FIRST_RECEIVE, first.wrId(), what + ": wrId of the first receive");
        QpStates.await(end.qp(), QpState.ERR, what + ": the responder");
        WorkCompletion second = Expect.status(WcStatus.WR_FLUSH_ERR, Completions.next(end.recvCq(), "the responder's second receive"),
                what + ": the second receive, flushed");
        assertEquals(SECOND_RECEIVE, second.wrId(), what + ": wrId of the second receive");
    }
}
