package dev.verbs4j.softroce.engine;

import dev.verbs4j.softroce.transport.Link;

import java.util.concurrent.locks.LockSupport;

/**
 * The thread that drives a {@link DeviceEngine}: it calls {@code doWork} with the current
 * time, spins briefly when idle (low latency), then sleeps on the link until a packet or
 * a post wakes it, never longer than {@value #MAX_IDLE_NS} ns so timers fire on time.
 */
public final class DeviceAgent implements AutoCloseable {
    private static final long MAX_IDLE_NS = 1_000_000L;
    private static final int SPINS_BEFORE_SLEEP = 2_000;

    private final DeviceEngine engine;
    private final Link link;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean sleeping;

    public DeviceAgent(DeviceEngine engine, Link link, String name) {
        this.engine = engine;
        this.link = link;
        this.thread = Thread.ofPlatform().daemon().name("verbs4j-" + name).unstarted(this::run);
        engine.onWakeup(this::wakeup);
        thread.start();
    }

    private void run() {
        int idle = 0;
        while (running) {
            int work;
            try {
                work = engine.doWork(System.nanoTime());
            } catch (RuntimeException | AssertionError e) {
                // A fault in the engine must not silently kill the device's only thread.
                engine.engineFault(e);
                work = 1;
            }
            if (work > 0) {
                idle = 0;
                continue;
            }
            if (++idle < SPINS_BEFORE_SLEEP) {
                Thread.onSpinWait();
                continue;
            }
            sleeping = true;
            link.await(MAX_IDLE_NS);
            sleeping = false;
            idle = SPINS_BEFORE_SLEEP / 2;
        }
    }

    /** Wakes the thread if it sleeps; cheap when it does not. */
    void wakeup() {
        if (sleeping) {
            link.wakeup();
        }
    }

    @Override
    public void close() {
        running = false;
        link.wakeup();
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
