package dev.verbs4j.conformance.base;

import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Creating completion queues ({@code ibv_create_cq}): any size from 1 to the device's
 * {@code max_cqe}, on every completion vector, with or without a completion channel, and
 * with at least the entries asked for. Resizing one ({@code ibv_resize_cq}) keeps the
 * completions it holds, and refuses a size below their number with EINVAL.
 */
@ConformanceSuite
class CompletionQueueTest {

    private static int[] sizes(Testbed bed) {
        int max = bed.local().attributes().maxCqe();
        return new int[] {1, max / 2, max};
    }

    @Test
    void queuesOfEverySizeUpToTheDeviceMaximumCreateOnEveryVector(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int vectors = Math.min(2, ctx.completionVectorCount());
        for (int size : sizes(bed)) {
            for (int vector = 0; vector < vectors; vector++) {
                try (CompletionQueue cq = ctx.createCq(size, null, vector)) {
                    assertTrue(cq.capacity() >= size, "a CQ asked for " + size + " entries has " + cq.capacity());
                }
            }
        }
        int last = ctx.completionVectorCount() - 1;
        try (CompletionQueue cq = ctx.createCq(8, null, last)) {
            assertTrue(cq.capacity() >= 8, "a CQ on the last vector, " + last + ", has " + cq.capacity() + " entries");
        }
    }

    @Test
    void queuesOfEverySizeCreateWithACompletionChannel(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        for (int size : sizes(bed)) {
            try (CompletionChannel channel = ctx.createCompletionChannel();
                 CompletionQueue cq = ctx.createCq(size, channel, 0)) {
                assertSame(channel, cq.channel(), "the CQ's channel");
                assertTrue(cq.capacity() >= size, "a CQ asked for " + size + " entries has " + cq.capacity());
            }
        }
    }

    @Test
    void resizeShrinksAndGrowsAndKeepsTheCompletionsItHolds(Testbed bed) {
        RcPair pair = bed.rcPair();
        CompletionQueue cq = pair.local().recvCq();
        Require.supportedByCall("resizing a completion queue on " + bed.local(), () -> cq.resize(1));
        assertTrue(cq.capacity() >= 1, "a queue resized to 1 entry has " + cq.capacity());
        cq.resize(7);
        assertTrue(cq.capacity() >= 7, "a queue resized to 7 entries has " + cq.capacity());

        int messages = 6;
        Buffer source = pair.remote().buffer(64);
        Buffer sink = pair.local().buffer(messages * 64L);
        for (int i = 0; i < messages; i++) {
            pair.local().postRecv(40 + i, sink, i * 64L, 64);
        }
        for (int i = 0; i < messages; i++) {
            pair.remote().qp().postSend(new SendWorkRequest().wrId(i).signaled(true).buffer(source.region(), 0, 8 + i).send());
        }
        // A responder completes a receive before it acknowledges the message: with every send
        // acknowledged, all six receive completions are in the queue.
        Completions.next(pair.remote().sendCq(), messages, "the peer's sends");

        Expect.errno(Errno.EINVAL, () -> cq.resize(1), "resizing to 1 entry a queue that holds " + messages + " completions");
        cq.resize(messages + 10);
        assertTrue(cq.capacity() >= messages + 10, "a queue resized to " + (messages + 10) + " entries has " + cq.capacity());
        for (int i = 0; i < messages; i++) {
            var wc = Expect.success(WcOpcode.RECV, 40 + i, Completions.next(cq, "receive " + i), "receive " + i + " after the resizes");
            assertEquals(8 + i, wc.byteLength(), "byte_len of receive " + i);
        }
    }

    @Test
    void resizeOutsideOneToTheDeviceMaximumFailsWithEinval(Testbed bed) {
        CompletionQueue cq = bed.cq(bed.local(), 8);
        int max = bed.local().attributes().maxCqe();
        Require.supportedByCall("resizing a completion queue on " + bed.local(), () -> cq.resize(8));
        Expect.errno(Errno.EINVAL, () -> cq.resize(0), "resizing a queue to 0 entries");
        Expect.errno(Errno.EINVAL, () -> cq.resize(max + 1), "resizing a queue past max_cqe, to " + (max + 1));
        assertTrue(cq.capacity() >= 8, "a refused resize leaves the queue as it was: " + cq.capacity());
    }
}
