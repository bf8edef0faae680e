package dev.verbs4j.softroce;

import dev.verbs4j.softroce.engine.DeviceEngine;

import java.util.concurrent.CopyOnWriteArrayList;

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

    private static final CopyOnWriteArrayList<DeviceEngine> ENGINES = new CopyOnWriteArrayList<>();

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
        if (ENGINES.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (int i = 0; i < ENGINES.size(); i++) {
            ENGINES.get(i).tryDoWork(now);
        }
    }
}
