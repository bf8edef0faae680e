package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.DeviceEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.EnumSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import static dev.verbs4j.softroce.engine.Counters.PACKETS_IN;
import static dev.verbs4j.softroce.engine.Counters.PACKETS_OUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Caller progress over real UDP sockets: the application's polls step every caller-driven
 * device, and a responder's acknowledgement that no poll sends (the application stopped
 * polling after its message arrived) still leaves, sent by the watch.
 */
class CallerProgressTest {
    private String property;

    @BeforeEach
    void callerProgress() {
        property = System.getProperty(CallerProgress.PROPERTY);
        System.setProperty(CallerProgress.PROPERTY, "caller");
    }

    @AfterEach
    void restore() {
        if (property == null) {
            System.clearProperty(CallerProgress.PROPERTY);
        } else {
            System.setProperty(CallerProgress.PROPERTY, property);
        }
    }

    @Test
    void anAcknowledgementNoPollSendsLeavesWithTheWatch() throws Exception {
        SoftDevice a = device("cp-a", "127.0.0.1", 27951, 27952);
        SoftDevice b = device("cp-b", "127.0.0.2", 27952, 27951);
        try (RcPair pair = writablePair(a, b)) {
            assertFalse(a.hasEngineThread() || b.hasEngineThread(), "caller progress: no engine thread");
            assertTrue(a.engine().holdsAcks() && b.engine().holdsAcks(), "acknowledgements are held to the next step");
            DeviceEngine responder = b.engine();
            long sentBefore = responder.counters().get(PACKETS_OUT);
            pair.a.buf.set(ValueLayout.JAVA_BYTE, 7, (byte) 0x5a);
            writeAToB(pair);
            WorkCompletion[] none = {new WorkCompletion()};
            // Each empty poll steps both devices: the WRITE leaves, and is placed.
            for (int polls = 0; pair.b.buf.get(ValueLayout.JAVA_BYTE, 7) != 0x5a; polls++) {
                assertTrue(polls < 1_000_000, "the WRITE was never placed");
                assertEquals(0, pair.b.cq.poll(none, 1));
            }
            // No poll from here on: only the watch can send the acknowledgement.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (responder.counters().get(PACKETS_OUT) == sentBefore) {
                assertTrue(System.nanoTime() < deadline, "the held acknowledgement never left");
                Thread.sleep(1);
            }
            assertEquals(sentBefore + 1, responder.counters().get(PACKETS_OUT), "one acknowledgement");
            WorkCompletion wc = pair.await(pair.a.cq, 10_000);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        }
    }

    /**
     * A poll steps its own device and leaves a device that another thread polls to that
     * thread; the post sends its request without a poll.
     */
    @Test
    void aPollLeavesADeviceAnotherThreadPollsToIt() throws Exception {
        SoftDevice a = device("cp-c", "127.0.0.1", 27953, 27954);
        SoftDevice b = device("cp-d", "127.0.0.2", 27954, 27953);
        try (RcPair pair = writablePair(a, b)) {
            Thread other = new Thread(() -> { });
            // Another thread polls B from now on (its last poll is an hour ahead of this clock).
            b.engine().polledBy(other, System.nanoTime() + 3_600_000_000_000L);
            long sentBefore = a.engine().counters().get(PACKETS_OUT);
            long inBefore = b.engine().counters().get(PACKETS_IN);
            pair.a.buf.set(ValueLayout.JAVA_BYTE, 7, (byte) 0x5b);
            writeAToB(pair);
            assertEquals(sentBefore + 1, a.engine().counters().get(PACKETS_OUT), "the WRITE left with its post");
            WorkCompletion[] none = {new WorkCompletion()};
            for (int polls = 0; polls < 1_000; polls++) {
                assertEquals(0, pair.a.cq.poll(none, 1));
            }
            assertEquals(inBefore, b.engine().counters().get(PACKETS_IN), "A's polls left B to its poller");
            assertEquals(0, pair.b.buf.get(ValueLayout.JAVA_BYTE, 7));
            // This thread polls B now: its polls of A step B too.
            b.engine().polledBy(Thread.currentThread(), System.nanoTime());
            WorkCompletion wc = pair.await(pair.a.cq, 10_000);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(0x5b, pair.b.buf.get(ValueLayout.JAVA_BYTE, 7));
        }
    }

    /**
     * A post finds another thread inside its engine (the watch sending held acknowledgements
     * holds the engine's lock for a moment): it waits for that thread to leave and sends its
     * request itself, since the watch sends no request and no poll may come.
     */
    @Test
    void aPostWaitsForAThreadInsideItsEngineAndSends() throws Exception {
        SoftDevice a = device("cp-e", "127.0.0.1", 27955, 27956);
        SoftDevice b = device("cp-f", "127.0.0.2", 27956, 27955);
        try (RcPair pair = writablePair(a, b)) {
            ReentrantLock engineLock = a.engine().lock();
            CountDownLatch held = new CountDownLatch(1);
            AtomicBoolean posted = new AtomicBoolean();
            Thread inside = Thread.ofPlatform().start(() -> {
                engineLock.lock();
                try {
                    held.countDown();
                    // Stay inside until the post waits for the lock, or has returned without it.
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (!engineLock.hasQueuedThreads() && !posted.get() && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                } finally {
                    engineLock.unlock();
                }
            });
            assertTrue(held.await(10, TimeUnit.SECONDS), "the other thread entered the engine");
            long sentBefore = a.engine().counters().get(PACKETS_OUT);
            pair.a.buf.set(ValueLayout.JAVA_BYTE, 7, (byte) 0x5c);
            writeAToB(pair);
            posted.set(true);
            inside.join(10_000);
            assertEquals(sentBefore + 1, a.engine().counters().get(PACKETS_OUT), "the WRITE left with its post");
            WorkCompletion wc = pair.await(pair.a.cq, 10_000);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(0x5c, pair.b.buf.get(ValueLayout.JAVA_BYTE, 7));
        }
    }

    private static SoftDevice device(String name, String address, int port, int peerPort) throws Exception {
        return new SoftDevice(SoftDeviceConfig.of(name, InetAddress.getByName(address)).withPorts(port, peerPort));
    }

    /** A's 8-byte WRITE into the start of B's region, signaled. */
    private static void writeAToB(RcPair pair) {
        pair.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(pair.a.mr, 0, 8)
                .rdmaWrite(pair.b.mr.address(), pair.b.mr.rkey()));
    }

    /** A connected RC pair whose B side takes remote WRITEs, on real UDP sockets. */
    private static RcPair writablePair(SoftDevice a, SoftDevice b) {
        return new RcPair(a, b, 4096, 8, new RcOptions().timeout(18).access(EnumSet.of(Access.LOCAL_WRITE,
                Access.REMOTE_WRITE)), null);
    }
}
