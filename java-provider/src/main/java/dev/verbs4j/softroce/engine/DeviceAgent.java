package dev.verbs4j.softroce.engine;

import dev.verbs4j.softroce.monitor.SoftEvents;
import dev.verbs4j.softroce.transport.Link;

import java.util.concurrent.locks.LockSupport;

/**
 * The thread that drives a {@link DeviceEngine}: it calls {@code doWork} with the current
 * time, spins briefly when idle (low latency), then sleeps on the link until a packet or
 * a post wakes it, never longer than {@value #MAX_IDLE_NS} ns so timers fire on time.
 * <p>
 * The spin is a budget of time, not of steps: every idle step asks the socket for a
 * datagram (a system call), so a long spin takes a core from the threads that have work,
 * which on two cores are the application's and the peer device's; and each spin yields,
 * so that a thread waiting for this core does not wait for the budget to run out. The budget is
 * {@code -Dverbs4j.soft.spinMicros} (default {@value #DEFAULT_SPIN_MICROS} µs). The first
 * {@code -Dverbs4j.soft.pauseMicros} (default {@value #DEFAULT_PAUSE_MICROS} µs) of it only
 * pause, without yielding: the gaps inside a stream of packets are shorter than that, and a
 * yield on a busy core gives the core away for a whole time slice, which stalled streams
 * when another process took the other core.
 * <p>
 * While an application thread busy-polls a completion queue of the device, that thread
 * does the work ({@link DeviceEngine#help}) and this one steps back: it neither spins nor
 * wakes for packets, only looks every so often whether the polls go on, and takes over when
 * they stopped for {@link DeviceEngine#HELP_WINDOW_NS} ns or the application is about to
 * block ({@link DeviceEngine#stopHelping}, which wakes it at once). On a machine with few
 * cores, a spinning engine thread beside a spinning application thread (on each side of a
 * connection) would otherwise leave packets waiting for the scheduler's next time slice.
 * <p>
 * The looks come further apart the longer the polls go on ({@link StepBack}), up to
 * {@value #MAX_IDLE_NS} ns apart, the longest a sleeping engine thread goes without a step:
 * a look every window, between two processes that each poll on one core of two, cost about a
 * quarter of their rate. An application that has polled for a while and then stops without
 * arming a queue gets what comes in at the next look, at most that long after; a post of
 * its own wakes this thread at once.
 */
public final class DeviceAgent implements AutoCloseable {
    private static final long MAX_IDLE_NS = 1_000_000L;
    static final long DEFAULT_SPIN_MICROS = 100;
    static final String SPIN_PROPERTY = "verbs4j.soft.spinMicros";
    private static final long SPIN_NS = Math.max(0, Long.getLong(SPIN_PROPERTY, DEFAULT_SPIN_MICROS)) * 1_000L;
    static final long DEFAULT_PAUSE_MICROS = 20;
    static final String PAUSE_PROPERTY = "verbs4j.soft.pauseMicros";
    private static final long PAUSE_NS = Math.max(0, Long.getLong(PAUSE_PROPERTY, DEFAULT_PAUSE_MICROS)) * 1_000L;

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
        engine.joinSweep();
        thread.start();
    }

    private void run() {
        long lastStepNs = System.nanoTime();
        long idleSinceNs = lastStepNs;
        StepBack stepBack = new StepBack(DeviceEngine.HELP_WINDOW_NS, MAX_IDLE_NS);
        while (running) {
            // Never queue for the lock: a polling application thread holding it is doing the
            // work (and a queued lock waiter would allocate its node). A fault in the engine
            // must not silently kill the device's only thread.
            long nowNs = System.nanoTime();
            SoftEvents.engineStep(engine.name(), nowNs - lastStepNs);
            lastStepNs = nowNs;
            int work = engine.step(nowNs);
            if (work > 0) {
                idleSinceNs = nowNs;
                continue;
            }
            long parkNs = stepBack.parkNanos(engine.helpedAtNs(), System.nanoTime());
            if (parkNs > 0) {
                parked = true;
                LockSupport.parkNanos(parkNs);
                parked = false;
                idleSinceNs = System.nanoTime();
                continue;
            }
            if (nowNs - idleSinceNs < SPIN_NS) {
                if (nowNs - idleSinceNs < PAUSE_NS) {
                    Thread.onSpinWait();
                } else {
                    // Yield rather than pause: a thread waiting for this core (the application's,
                    // or the peer device's in the same process) gets it at once.
                    Thread.yield();
                }
                continue;
            }
            sleeping = true;
            // A post between the idle step and the flag saw no sleeper and wrote no wake-up:
            // one more step, with the flag up, takes it (the post then sees the flag or its
            // request is taken here), instead of sleeping a whole MAX_IDLE_NS on it.
            if (engine.step(System.nanoTime()) > 0) {
                sleeping = false;
                idleSinceNs = System.nanoTime();
                continue;
            }
            link.await(MAX_IDLE_NS);
            sleeping = false;
            // Woken by a packet or a post: half a budget, since more tends to follow.
            idleSinceNs = System.nanoTime() - SPIN_NS / 2;
        }
    }

    /**
     * Wakes the thread if it sleeps, or if it stepped back and no application thread helps
     * now (the help ended, or the polls stopped without arming a queue): a post then does
     * not wait for its next look. Cheap when it does neither.
     */
    void wakeup() {
        if (sleeping) {
            link.wakeup();
        } else if (parked && !engine.helpedRecently(System.nanoTime())) {
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
