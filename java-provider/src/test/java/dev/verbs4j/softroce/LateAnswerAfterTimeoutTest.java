package dev.verbs4j.softroce;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.Mtu;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.Counters;
import dev.verbs4j.softroce.wire.OpcodeTable;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketView;
import org.junit.jupiter.api.Test;

import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An answer that comes after the requester's ACK timeout fired, but before the request it
 * answers went again, is the request's answer. The responder may never send another: the
 * kernel rxe drops a repeated FLUSH, and a responder that NAKed a request is in the error
 * state. Over an in-memory network and a fake clock.
 */
class LateAnswerAfterTimeoutTest {
    private final WatchingLink[] links = new WatchingLink[2];
    private int linkCount;
    private final SimulatedPair sim = new SimulatedPair(5, l -> links[linkCount++] = new WatchingLink(l));

    private WatchingLink linkA() {
        return links[0];
    }

    private WatchingLink linkB() {
        return links[1];
    }

    @Test
    void aFlushAnsweredAfterItsTimeoutCompletesThoughItsRepeatIsNeverAnswered() {
        try (RcPair p = connect()) {
            neverAnswerARepeated(Opcodes.RC_FLUSH);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true)
                    .flush(p.b.mr.address(), p.b.mr.rkey(), 64, FlushType.GLOBAL, FlushLevel.RANGE));

            releaseAfterTheTimeout(p, v -> v.has(OpcodeTable.READ_RESPONSE));

            WorkCompletion wc = poll(p.a.cq);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(0, counter(p, Counters.DROP_GHOST_RESPONSE), "the late answer was taken");
        }
    }

    @Test
    void anAtomicAnsweredAfterItsTimeoutCompletesWithTheResultOfItsOneExecution() {
        try (RcPair p = connect()) {
            neverAnswerARepeated(Opcodes.RC_FETCH_ADD);
            p.b.buf.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 40);
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 8)
                    .fetchAndAdd(p.b.mr.address(), p.b.mr.rkey(), 2));

            releaseAfterTheTimeout(p, v -> v.opcode() == Opcodes.RC_ATOMIC_ACKNOWLEDGE);

            WorkCompletion wc = poll(p.a.cq);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(40, p.a.buf.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0), "the original value");
            assertEquals(42, p.b.buf.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0), "added once");
        }
    }

    @Test
    void aRemoteAccessNakThatComesAfterTheTimeoutIsTheWritesError() {
        try (RcPair p = connect()) {
            p.a.qp.postSend(new SendWorkRequest().wrId(3).signaled(true).buffer(p.a.mr, 0, 64)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey() ^ 0x100));

            releaseAfterTheTimeout(p, v -> v.opcode() == Opcodes.RC_ACKNOWLEDGE);

            WorkCompletion wc = poll(p.a.cq);
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc.toString());
        }
    }

    @Test
    void aFlushAnsweredAfterTheTimeoutOfTheWriteBeforeItCompletesBoth() {
        try (RcPair p = connect()) {
            neverAnswerARepeated(Opcodes.RC_FLUSH);
            int message = 8 * 1024;
            p.a.qp.postSend(new SendWorkRequest().wrId(4).signaled(true).buffer(p.a.mr, 0, message)
                    .rdmaWrite(p.b.mr.address(), p.b.mr.rkey()));
            p.a.qp.postSend(new SendWorkRequest().wrId(5).signaled(true)
                    .flush(p.b.mr.address(), p.b.mr.rkey(), message, FlushType.GLOBAL, FlushLevel.MR));

            releaseAfterTheTimeout(p, v -> true);

            assertEquals(WcStatus.SUCCESS, poll(p.a.cq).status(), "the write");
            assertEquals(WcStatus.SUCCESS, poll(p.a.cq).status(), "the flush");
            assertEquals(1, linkA().count(Opcodes.RC_RDMA_WRITE_FIRST),
                    "the answers came before the resend and covered the write: it did not go again");
        }
    }

    private RcPair connect() {
        return sim.connect(1 << 16, 8, new RcOptions().timeout(10).retryCount(3).mtu(Mtu.MTU_1024));
    }

    /** A responder that drops a request it has executed once, as the kernel rxe does with FLUSH. */
    private void neverAnswerARepeated(int opcode) {
        int[] sent = {0};
        linkA().drop = v -> v.opcode() == opcode && ++sent[0] > 1;
    }

    /**
     * Holds the responder's {@code answers} until the requester's ACK timeout has fired, then
     * lets them go before the requester's next step, which would send the request again.
     */
    private void releaseAfterTheTimeout(RcPair p, Predicate<PacketView> answers) {
        linkB().hold = answers;
        assertTrue(sim.runUntil(() -> counter(p, Counters.TIMEOUTS) == 1, 100_000), "the requester timed out");
        assertTrue(linkB().heldCount() > 0, "the answer was held back");
        linkB().hold = v -> false;
        linkB().release();
    }

    private static long counter(RcPair p, int counter) {
        return ((SoftQp) p.a.qp).engine.counters().get(counter);
    }

    private WorkCompletion poll(CompletionQueue cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> cq.poll(wc) == 1, 100_000), "no completion");
        return wc[0];
    }
}
