package dev.verbs4j.softroce;

import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.softroce.monitor.SoftEvents;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The soft engine's rare events in a JFR recording, and their cost when nothing records them. */
class RareEventsInJfrTest {
    @TempDir
    Path dir;

    @Test
    void retriesRunningOutAreARetryExhaustedAndAQueuePairErrorEvent() throws Exception {
        SimulatedPair sim = new SimulatedPair(8, "jfr-a", "jfr-b", UnaryOperator.identity());
        Path file = dir.resolve("events.jfr");
        int qpn;
        try (Recording recording = new Recording()) {
            recording.enable(SoftEvents.PREFIX + "RetryExhausted");
            recording.enable(SoftEvents.PREFIX + "QueuePairError");
            recording.enable(SoftEvents.PREFIX + "EngineStall");
            recording.start();
            try (RcPair pair = sim.connect(1 << 16, 8, new RcOptions().timeout(8).retryCount(2).rnrRetry(7).minRnrTimer(1))) {
                qpn = pair.a.qp.qpn();
                sim.network.faults(1.0, 0, 0, 0); // the peer is gone: nothing arrives
                pair.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(pair.a.mr, 0, 64)
                        .rdmaWrite(pair.b.mr.address(), pair.b.mr.rkey()));
                assertEquals(WcStatus.RETRY_EXC_ERR, pair.await(pair.a.cq, 30_000).status());
            }
            assertTrue(SoftEvents.engineStep("jfr-a", SoftEvents.STALL_THRESHOLD_NS + 1));
            assertFalse(SoftEvents.engineStep("jfr-a", SoftEvents.STALL_THRESHOLD_NS));
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        RecordedEvent exhausted = only(events, "RetryExhausted");
        assertEquals("jfr-a", exhausted.getString("device"));
        assertEquals(qpn, exhausted.getInt("qpn"));
        assertEquals("RETRY_EXC_ERR", exhausted.getString("status"));
        RecordedEvent error = only(events, "QueuePairError");
        assertEquals("jfr-a", error.getString("device"));
        assertEquals(qpn, error.getInt("qpn"));
        assertEquals("RETRY_EXC_ERR", error.getString("cause"));
        RecordedEvent stall = only(events, "EngineStall");
        assertEquals(SoftEvents.STALL_THRESHOLD_NS + 1, stall.getDuration("gapNs").toNanos());
    }

    @Test
    void eventsNothingRecordsAllocateNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM cannot measure per-thread allocation");
        RuntimeException fault = new IllegalStateException("test");
        for (int i = 0; i < 20_000; i++) {
            fire(fault, i);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            fire(fault, i);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1_000, "allocated " + allocated + " bytes for 400000 disabled events");
    }

    private static void fire(RuntimeException fault, int i) {
        SoftEvents.retryExhausted("d", i, WcStatus.RETRY_EXC_ERR, i);
        SoftEvents.queuePairError("d", i, "transport error");
        SoftEvents.engineFault("d", fault);
        SoftEvents.engineStep("d", SoftEvents.STALL_THRESHOLD_NS + i);
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> found = events.stream().filter(e -> e.getEventType().getName().equals(SoftEvents.PREFIX + name)).toList();
        assertEquals(1, found.size(), name + " events: " + found);
        return found.getFirst();
    }
}
