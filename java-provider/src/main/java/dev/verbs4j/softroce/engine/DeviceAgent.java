package dev.verbs4j.softroce.engine;

import dev.verbs4j.softroce.monitor.SoftEvents;
import dev.verbs4j.softroce.transport.Link;

import java.util.concurrent.locks.LockSupport;

/**
 * The thread that drives a {@link DeviceEngine}: it calls {@code doWork} with the current
 * time, spins briefly when idle (low latency), then sleeps on the link until a packet or
 * a post wakes it, never longer than {@value #MAX_IDLE_NS} ns so timers fire on time.
 * <p>
 * While an application thread busy-polls a completion queue of the device, that thread
 * does the work ({@link DeviceEngine#help}) and this one steps back: it neither spins nor
 * wakes for packets, only ticks every {@value #HELPED_TICK_NS} ns for the timers, and takes
 * over when the polls stop for that long or the application is about to block
 * ({@link DeviceEngine#stopHelping}). On a machine with few cores, a spinning engine thread
 * beside a spinning application thread (on each side of a connection) would otherwise
 * leave packets waiting for the scheduler's next time slice.
 */
public final class DeviceAgent implements AutoCloseable {
    private static final long MAX_IDLE_NS = 1_000_000L;
    private static final int SPINS_BEFORE_SLEEP = 2_000;
    private static final long HELPED_TICK_NS = DeviceEngine.HELP_WINDOW_NS;

    private final DeviceEngine engine;
    private final Link link;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean sleeping;
    private volatile boolean parked;

    public DeviceAgent(DeviceEngine engine, Link link, String name) {
        this.engine = engine;
        this.link = link;
        this.thread = Thread.ofPlatform().daemon().name("verbs4j-" + name).unstarted(this::run);
        engine.onWakeup(this::wakeup);
        thread.start();
    }

    private void run() {
        int idle = 0;
        long lastStepNs = System.nanoTime();
        while (running) {
            // Never queue for the lock: a polling application thread holding it is doing the
            // work (and a queued lock waiter would allocate its node). A fault in the engine
            // must not silently kill the device's only thread.
            long nowNs = System.nanoTime();
            SoftEvents.engineStep(engine.name(), nowNs - lastStepNs);
            lastStepNs = nowNs;
            int work = engine.step(nowNs);
            if (work > 0) {
                idle = 0;
                continue;
            }
            if (System.nanoTime() - engine.helpedAtNs() < HELPED_TICK_NS) {
                parked = true;
                LockSupport.parkNanos(HELPED_TICK_NS);
                parked = false;
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
        } else if (parked && engine.helpedAtNs() == 0) {
            LockSupport.unpark(thread);
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
