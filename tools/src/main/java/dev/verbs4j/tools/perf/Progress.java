package dev.verbs4j.tools.perf;

import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * How far the running measurement is, shown while it goes on: on a terminal, a bar redrawn
 * in place; otherwise a plain line now and then, for runs that long. The measuring loops
 * only store a count ({@link #update}: no allocation, no lock); a daemon thread of its own
 * reads it and prints, and {@link Allocation} leaves that thread out of the figures. Nothing
 * is shown until {@link #attach} names where to.
 */
final class Progress {
    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findStaticVarHandle(Progress.class, "done", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Written by the measuring thread with {@link #update}, read by the reporter. */
    @SuppressWarnings("unused")
    private static long done;

    private static final Object LOCK = new Object();
    // Guarded by LOCK.
    private static PrintStream to;
    private static boolean terminal;
    private static long tickNs;
    private static long firstAfterNs;
    private static long lineEveryNs;
    private static String label;
    private static long total;
    /** Of a measurement that runs for a time rather than a count, that time; else 0. */
    private static long durationNs;
    /** Operations done by the runs of the measurement that are over. */
    private static long base;
    private static long startedNs;
    private static long lastLineNs;
    private static boolean barShown;
    private static Thread reporter;
    /** The time in nanoseconds; {@link System#nanoTime} unless a test drives the reporter. */
    private static LongSupplier clock = System::nanoTime;
    /** Whether only {@link #tick} shows progress (the reporter thread then leaves it alone). */
    private static boolean driven;

    private Progress() {
    }

    /**
     * Shows progress on {@code stream}: a bar redrawn five times a second once a measurement
     * has run a second when {@code isTerminal}, else a line every ten seconds.
     */
    static void attach(PrintStream stream, boolean isTerminal) {
        attach(stream, isTerminal, 200_000_000L, 1_000_000_000L, 10_000_000_000L);
    }

    /** {@link #attach(PrintStream, boolean)} with its times given. */
    static void attach(PrintStream stream, boolean isTerminal, long tick, long firstAfter, long lineEvery) {
        synchronized (LOCK) {
            configure(stream, isTerminal, firstAfter, lineEvery, System::nanoTime, false);
            tickNs = tick;
            if (reporter == null) {
                reporter = Thread.ofPlatform().daemon().name("perf progress").start(Progress::report);
            }
        }
    }

    /**
     * Shows progress on {@code stream} only when {@link #tick} is called, at the times
     * {@code time} gives: how tests see what a run would show without depending on how fast
     * the machine is.
     */
    static void attachDriven(PrintStream stream, boolean isTerminal, long firstAfter, long lineEvery, LongSupplier time) {
        synchronized (LOCK) {
            configure(stream, isTerminal, firstAfter, lineEvery, time, true);
        }
    }

    private static void configure(PrintStream stream, boolean isTerminal, long firstAfter, long lineEvery, LongSupplier time,
                                  boolean isDriven) {
        to = stream;
        terminal = isTerminal;
        firstAfterNs = firstAfter;
        lineEveryNs = lineEvery;
        clock = time;
        driven = isDriven;
        barShown = false;
    }

    /** Whether this stream's process has a terminal to draw on. */
    static boolean onTerminal() {
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }

    /** The reporter thread's id, or -1 before there is one. */
    static long reporterId() {
        synchronized (LOCK) {
            return reporter == null ? -1 : reporter.threadId();
        }
    }

    /** A measurement of {@code operations} begins; call outside the timed region. */
    static void start(String what, long operations) {
        start(what, operations, 0);
    }

    /**
     * A measurement begins: of {@code operations}, or, with a {@code duration} (ns), of runs
     * of that many until the time is up; call outside the timed region.
     */
    static void start(String what, long operations, long duration) {
        DONE.setOpaque(0L);
        synchronized (LOCK) {
            label = what;
            total = operations;
            durationNs = duration;
            base = 0;
            startedNs = clock.getAsLong();
            lastLineNs = startedNs;
        }
    }

    /** A run of {@code operations} of the measurement is over; the next one counts from 0 again. */
    static void advance(long operations) {
        synchronized (LOCK) {
            DONE.setOpaque(0L);
            base += operations;
        }
    }

    /** {@code operations} of the current measurement are done. */
    static void update(long operations) {
        DONE.setOpaque(operations);
    }

    /** The measurement is over: its bar is wiped, so the result line takes its place. */
    static void finish() {
        synchronized (LOCK) {
            total = 0;
            if (barShown) {
                to.print("\r\033[K");
                to.flush();
                barShown = false;
            }
        }
    }

    private static void report() {
        while (true) {
            long sleep;
            synchronized (LOCK) {
                sleep = tickNs;
                if (!driven) {
                    tick();
                }
            }
            LockSupport.parkNanos(sleep);
        }
    }

    /** Shows how far the measurement is, if it has run long enough for that, at the clock's time. */
    static void tick() {
        synchronized (LOCK) {
            long now = clock.getAsLong();
            if (total > 0 && now - startedNs >= firstAfterNs) {
                long d = doneSoFar();
                long of = durationNs > 0 ? 0 : total;
                if (terminal) {
                    to.print("\r" + bar(label, d, of, now - startedNs, durationNs));
                    to.flush();
                    barShown = true;
                } else if (now - lastLineNs >= lineEveryNs) {
                    to.println(line(label, d, of, now - startedNs, durationNs));
                    to.flush();
                    lastLineNs = now;
                }
            }
        }
    }

    /** Operations done by the current measurement, over all its runs. */
    static long doneSoFar() {
        synchronized (LOCK) {
            return base + (long) DONE.getOpaque();
        }
    }

    /**
     * {@code write_bw 65536 B [##########..........]  50% 2,500/5,000 3 s}, or for a run of a
     * given duration ({@code totalOps} 0) {@code ... 50% 2,500 done 5/10 s}.
     */
    static String bar(String what, long doneOps, long totalOps, long elapsedNs, long duration) {
        int width = 30;
        long percent = percent(doneOps, totalOps, elapsedNs, duration);
        int filled = (int) (percent * width / 100);
        return String.format(Locale.ROOT, "%s [%s%s] %3d%% %s", what, "#".repeat(filled), ".".repeat(width - filled), percent,
                duration > 0 ? String.format(Locale.ROOT, "%,d done %d/%d s", doneOps, elapsedNs / 1_000_000_000L,
                        duration / 1_000_000_000L)
                        : String.format(Locale.ROOT, "%,d/%,d %d s", doneOps, totalOps, elapsedNs / 1_000_000_000L));
    }

    /** {@code perf: write_bw 65536 B: 50% (2,500 of 5,000) after 10 s}, or {@code (2,500 done) after 10 of 20 s}. */
    static String line(String what, long doneOps, long totalOps, long elapsedNs, long duration) {
        long percent = percent(doneOps, totalOps, elapsedNs, duration);
        return duration > 0
                ? String.format(Locale.ROOT, "perf: %s: %d%% (%,d done) after %d of %d s", what, percent, doneOps,
                        elapsedNs / 1_000_000_000L, duration / 1_000_000_000L)
                : String.format(Locale.ROOT, "perf: %s: %d%% (%,d of %,d) after %d s", what, percent, doneOps, totalOps,
                        elapsedNs / 1_000_000_000L);
    }

    private static long percent(long doneOps, long totalOps, long elapsedNs, long duration) {
        return Math.min(100, duration > 0 ? elapsedNs * 100 / duration : doneOps * 100 / Math.max(1, totalOps));
    }
}
