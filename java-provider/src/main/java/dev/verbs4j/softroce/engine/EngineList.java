package dev.verbs4j.softroce.engine;

/**
 * A set of engines that threads other than their own walk on every poll: an array replaced
 * whole on every change (rare: a device opening or closing), so a walk reads one array, never
 * sees it shrink under its index, and allocates nothing.
 */
public final class EngineList {
    private final Object lock = new Object();
    private volatile DeviceEngine[] engines = new DeviceEngine[0];

    /** Adds {@code engine}. */
    public void add(DeviceEngine engine) {
        synchronized (lock) {
            DeviceEngine[] now = java.util.Arrays.copyOf(engines, engines.length + 1);
            now[now.length - 1] = engine;
            engines = now;
        }
    }

    /** Removes {@code engine}, if it is there. */
    public void remove(DeviceEngine engine) {
        synchronized (lock) {
            engines = java.util.Arrays.stream(engines).filter(e -> e != engine).toArray(DeviceEngine[]::new);
        }
    }

    /** The engines now: an array the caller only reads. */
    public DeviceEngine[] all() {
        return engines;
    }
}
