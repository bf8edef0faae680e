package dev.verbs4j.tools.perf;

import dev.verbs4j.Mtu;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SendWorkRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code perf -q}: every request goes out on the next queue pair in turn. */
class QueuePairSpreadTest {
    static {
        // The same devices as Verbs4jCliTest, whichever of the two loads the provider first.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
    }

    @Test
    void eachQueuePairSendsItsShareOfTheRequests() {
        try (Loopback lb = new Loopback("soft", 1 << 16, 16, Mtu.MTU_4096, false)) {
            QueuePair[] qps = lb.requesters(4);
            QpAttributes attributes = new QpAttributes();
            int[] before = new int[qps.length];
            for (int i = 0; i < qps.length; i++) {
                before[i] = qps[i].query(attributes).sqPsn();
            }

            // 400 warm-up requests, then 400 measured: one packet each at 4 KiB and MTU 4096.
            VerbsTests.bandwidth("write_bw", lb, 4096, 400, 400, new VerbsTests.Pipeline(16, 4, 100, 1), 0);

            for (int i = 0; i < qps.length; i++) {
                int sent = (qps[i].query(attributes).sqPsn() - before[i]) & 0xFFFFFF;
                assertEquals(200, sent, "packets sent by queue pair " + i);
            }
        }
    }

    /** --cq-mod: every third request of a pair is signaled, the last of each pair too, and the ids add up to the count. */
    @Test
    void signaledRequestsAccountForTheirPairsUnsignaledOnes() {
        assertEquals("0- 1- 0- 1- 0s3 1s3 0- 1- 0s2 1s2 | accounted for 10", trace(1, 3, 10));
    }

    /** --post-list: lists of 3 go to the pairs in turn, and the last list of each pair is signaled whole. */
    @Test
    void listsGoToThePairsInTurn() {
        assertEquals("0- 0- 0- 1- 1- 1- 0s4 0- 0- 1s4 1- 1- 0s3 0s1 0s1 1s3 1s1 1s1 | accounted for 18", trace(3, 4, 18));
    }

    /** A whole run with lists of 4 over 2 pairs: each pair sends its half. */
    @Test
    void postListsSpreadOverQueuePairs() {
        try (Loopback lb = new Loopback("soft", 1 << 16, 16, Mtu.MTU_4096, false)) {
            QueuePair[] qps = lb.requesters(2);
            QpAttributes attributes = new QpAttributes();
            int[] before = {qps[0].query(attributes).sqPsn(), qps[1].query(attributes).sqPsn()};

            VerbsTests.bandwidth("write_bw", lb, 4096, 400, 400, new VerbsTests.Pipeline(16, 2, 100, 4), 0);

            for (int i = 0; i < 2; i++) {
                assertEquals(400, (qps[i].query(attributes).sqPsn() - before[i]) & 0xFFFFFF, "packets sent by queue pair " + i);
            }
        }
    }

    /**
     * Each of {@code iterations} requests over 2 pairs as pair and signaling ({@code -}, or
     * {@code s} and the count its completion accounts for), then the sum of those counts.
     */
    private static String trace(int list, int signalEvery, int iterations) {
        try (Loopback lb = new Loopback("soft", 1 << 16, 16, Mtu.MTU_4096, false)) {
            VerbsTests.Posting posting = new VerbsTests.Posting(lb.requesters(2), list, signalEvery);
            SendWorkRequest wr = new SendWorkRequest();
            StringBuilder seen = new StringBuilder();
            long accounted = 0;
            for (int i = 0; i < iterations; i++) {
                int pair = posting.prepare(wr, i, iterations);
                seen.append(pair).append(wr.isSignaled() ? "s" + wr.wrId() : "-").append(' ');
                accounted += wr.isSignaled() ? wr.wrId() : 0;
            }
            return seen.append("| accounted for ").append(accounted).toString();
        }
    }
}
