package dev.verbs4j.softroce;

import dev.verbs4j.softroce.engine.DeviceEngine;


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

    private static final Object LOCK = new Object();
    /**
     * Replaced whole when a device opens or closes, so a poll reads one array and never sees
     * it shrink under its index (a device may close while another thread polls).
     */
    private static volatile DeviceEngine[] engines = new DeviceEngine[0];

    private CallerProgress() {
    }

    static boolean enabled() {
        return "caller".equals(System.getProperty(PROPERTY));
    }

    static void add(DeviceEngine engine) {
        synchronized (LOCK) {
            DeviceEngine[] now = java.util.Arrays.copyOf(engines, engines.length + 1);
            now[now.length - 1] = engine;
            engines = now;
        }
    }

    static void remove(DeviceEngine engine) {
        synchronized (LOCK) {
            engines = java.util.Arrays.stream(engines).filter(e -> e != engine).toArray(DeviceEngine[]::new);
        }
    }

    /** One step of every caller-driven engine; engines busy in another thread are skipped. */
    static void run() {
        DeviceEngine[] all = engines;
        if (all.length == 0) {
            return;
        }
        long now = System.nanoTime();
        for (DeviceEngine engine : all) {
            engine.tryDoWork(now);
        }
    }
}
