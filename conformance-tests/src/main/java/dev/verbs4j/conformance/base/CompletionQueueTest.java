package dev.verbs4j.conformance.base;

import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Creating completion queues ({@code ibv_create_cq}): any size from 1 to the device's
 * {@code max_cqe}, on every completion vector, with or without a completion channel, and
 * with at least the entries asked for.
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
}
