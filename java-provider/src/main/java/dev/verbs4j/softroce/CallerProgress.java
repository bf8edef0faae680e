package dev.verbs4j.softroce;

import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.engine.EngineList;

/**
 * Progress driven by the application instead of an engine thread: with
 * {@code -Dverbs4j.soft.progress=caller}, soft devices start no thread, and every poll and
 * post of any soft device in the process runs one step of every such device. One thread
 * that polls then carries both ends of a loopback connection, which is what a busy-polling
 * RDMA application does and what a benchmark on few cores needs.
 */
final class CallerProgress {
    /** System property choosing the progress model: {@code thread} (default) or {@code caller}. */
    static final String PROPERTY = "verbs4j.soft.progress";

    /** A device may close while another thread polls: the list never shrinks under a poll's walk. */
    private static final EngineList ENGINES = new EngineList();

    private CallerProgress() {
    }

    static boolean enabled() {
        return "caller".equals(System.getProperty(PROPERTY));
    }

    static void add(DeviceEngine engine) {
        ENGINES.add(engine);
    }

    static void remove(DeviceEngine engine) {
        ENGINES.remove(engine);
    }

    /** One step of every caller-driven engine; engines busy in another thread are skipped. */
    static void run() {
        DeviceEngine[] all = ENGINES.all();
        if (all.length == 0) {
            return;
        }
        long now = System.nanoTime();
        for (DeviceEngine engine : all) {
            engine.tryDoWork(now);
        }
    }
}
