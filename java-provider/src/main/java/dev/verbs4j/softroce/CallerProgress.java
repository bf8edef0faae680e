package dev.verbs4j.softroce;

import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.engine.EngineList;

import java.util.concurrent.locks.LockSupport;

/**
 * Progress driven by the application instead of an engine thread: with
 * {@code -Dverbs4j.soft.progress=caller}, soft devices start no thread, and every poll of a
 * completion queue of a soft device in the process that finds it empty runs one step of
 * every other such device that no other thread polls now, then of that device. One thread
 * that polls then carries both ends of a loopback connection, which is what a busy-polling
 * RDMA application does and what a benchmark on few cores needs, and two threads that each
 * poll their own end each drive their own. A post sends its requests at once
 * ({@link DeviceEngine#pollDriven}).
 * <p>
 * A responder holds its acknowledgement back to the next step, as with engine threads, so
 * that the application's answer to a request leaves before it. The polls are the only steps
 * and may stop after the last completion, so one daemon thread, the watch, looks every
 * {@value #WATCH_PERIOD_NS} ns and sends what no step has sent since its last look
 * ({@link DeviceEngine#sendHeldAcksNotStepped}): an acknowledgement goes at most two periods
 * late, far inside a requester's ACK timeout. The watch moves nothing else, and ends when the
 * last such device closes.
 */
final class CallerProgress {
    /** System property choosing the progress model: {@code thread} (default) or {@code caller}. */
    static final String PROPERTY = "verbs4j.soft.progress";
    /** How often the watch looks for acknowledgements that no step sent. */
    static final long WATCH_PERIOD_NS = 1_000_000L;

    /** A device may close while another thread polls: the list never shrinks under a poll's walk. */
    private static final EngineList ENGINES = new EngineList();
    /** The watch while caller-driven devices are open; guarded by the class. */
    private static Thread watch;

    private CallerProgress() {
    }

    static boolean enabled() {
        return "caller".equals(System.getProperty(PROPERTY));
    }

    static synchronized void add(DeviceEngine engine) {
        engine.holdAcks(true);
        engine.pollDriven(true);
        ENGINES.add(engine);
        if (watch == null) {
            watch = Thread.ofPlatform().daemon().name("verbs4j-held-acks").start(CallerProgress::watch);
        }
    }

    static void remove(DeviceEngine engine) {
        ENGINES.remove(engine);
    }

    /** One step of every caller-driven engine that no other thread polls now; engines busy in another thread are skipped. */
    static void run() {
        run(null);
    }

    /**
     * A poll of a completion queue of {@code polled} found it empty: one step of every other
     * caller-driven engine that no other thread polls now ({@link DeviceEngine#polledByAnother}),
     * then of {@code polled}. A thread that polls both ends of a connection steps both, the
     * peer first: what it sends in answer (a READ response, the ACK a send awaits) is then
     * in the polled device's socket for the step that follows. Two threads that each poll
     * their own end (a ping-pong with a thread per side) each step their own, instead of
     * taking each other's packets and finding each other inside their engines. Engines busy
     * in another thread are skipped.
     */
    static void run(DeviceEngine polled) {
        DeviceEngine[] all = ENGINES.all();
        if (all.length == 0) {
            return;
        }
        long now = System.nanoTime();
        Thread current = Thread.currentThread();
        boolean polledOpen = false;
        for (DeviceEngine engine : all) {
            if (engine == polled) {
                polledOpen = true;
            } else if (!engine.polledByAnother(current, now)) {
                engine.tryDoWork(now);
            }
        }
        if (polledOpen) {
            polled.polledBy(current, now);
            polled.tryDoWork(now);
        }
    }

    /** One look of the watch: sends the acknowledgements no step sent since the last; returns how many. */
    static int sendHeldAcksNotStepped() {
        int sent = 0;
        for (DeviceEngine engine : ENGINES.all()) {
            sent += engine.sendHeldAcksNotStepped();
        }
        return sent;
    }

    private static void watch() {
        while (true) {
            LockSupport.parkNanos(WATCH_PERIOD_NS);
            synchronized (CallerProgress.class) {
                if (ENGINES.all().length == 0) {
                    watch = null;
                    return;
                }
            }
            sendHeldAcksNotStepped();
        }
    }
}
