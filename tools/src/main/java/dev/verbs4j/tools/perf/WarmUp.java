package dev.verbs4j.tools.perf;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The unmeasured operations before a measurement: as many as it measures, up to
 * {@value #MAX}, unless {@code -w/--warmup} names a number. A JVM compiles a path only after
 * it has run it some thousands of times, and a {@code perf --server} is a fresh JVM for every
 * client: with the old thousand, the first two-process run measured the server's interpreted
 * code (an 8-byte WRITE ping-pong took 5.0 µs in a fresh pair and 4.0 µs in the same pair's
 * third run).
 * <p>
 * The warm-up is two runs, not one, so that the paths a run takes only as it ends (the last
 * requests, the last completions) are taken, and compiled, before the measurement. Code the
 * JIT compiled before the first run ended has never seen them: it is dropped when it meets
 * them, at the end of the first run, and compiled again. With a single warm-up run that
 * happened as the measurement began, which then ran its first tenths in profiling code.
 * <p>
 * Against a peer in another process, by that rule the warm-up also lasts at least
 * {@value #FRESH_PEER_NS} ns: more runs of half as many follow until it has. A count alone is
 * short where each operation is fast and the compilers share the cores with the run: two
 * processes that each keep a core busy leave the compiler threads little, and a fresh
 * {@code perf --server} was still compiling its engine several seconds after it started. A
 * 64 KiB WRITE stream to one moved 6-12 Gb/s in its first measured repetition and 20-27 in
 * the next ones after a warm-up of 5,000 or 10,000 messages, or of at least 1 s; after 2 s,
 * 16-25 from the first in five runs of six.
 * <p>
 * In one process the first measurement of each shape (test, size, devices and progress model)
 * in the JVM gets the same floor; later ones, whose paths are compiled, count alone. With engine
 * threads the two engines and the caller keep both cores of a 2-core machine busy, and the
 * compilers fall behind the same way: a 64 KiB {@code write_bw} with engine threads moved
 * 10-15 Gb/s in the first one or two of ten repetitions, allocating 13-27 bytes an operation
 * (code not yet compiled), and 25-29 Gb/s at 0.09 bytes in the others; after a warm-up of
 * 40,000 or 100,000 messages, no repetition of six fell below 21.9.
 */
final class WarmUp {
    static final int MAX = 20_000;
    /** The shortest warm-up by the default rule against a peer in another process. */
    static final long FRESH_PEER_NS = 2_000_000_000L;
    private static final String PROGRESS_PROPERTY = "verbs4j.soft.progress";
    /** The shapes measured in this JVM so far (their first warm-up had the floor). */
    private static final Set<String> MEASURED = ConcurrentHashMap.newKeySet();

    /** One unmeasured run of {@code operations}. */
    @FunctionalInterface
    interface Run<E extends Exception> {
        void run(int operations) throws E;
    }

    private WarmUp() {
    }

    /** The unmeasured operations before a measurement of {@code iterations}; {@code fixed} -1 for the rule above. */
    static int operations(int iterations, int fixed) {
        return fixed >= 0 ? fixed : Math.min(iterations, MAX);
    }

    /**
     * Runs the warm-up before a measurement of {@code iterations}: its operations in two runs,
     * the first half and the rest (one run for one operation, none for 0), and by the default
     * rule ({@code fixed} -1) more runs of the first half's size until {@code minNs} have
     * passed by {@code clock}; returns how many operations ran.
     */
    static <E extends Exception> int run(int iterations, int fixed, long minNs, LongSupplier clock, Run<E> run) throws E {
        long start = clock.getAsLong();
        int n = operations(iterations, fixed);
        if (n > 1) {
            run.run(n / 2);
        }
        if (n > 0) {
            run.run(n - n / 2);
        }
        int done = n;
        int more = Math.max(1, n / 2);
        while (fixed < 0 && n > 0 && clock.getAsLong() - start < minNs) {
            run.run(more);
            done += more;
        }
        return done;
    }

    /**
     * The warm-up of a measurement in this process with no pair of devices (the UDP
     * baselines): at least {@link #FRESH_PEER_NS} the first time this JVM measures
     * {@code shape}, by count alone after that. The baselines' code warms up as the engine's
     * does: the first stream with a thread per side in a JVM moved 8-15 Gb/s after a warm-up
     * of 5,000 messages, the next ones 20-30.
     */
    static <E extends Exception> int run(int iterations, int fixed, String shape, Run<E> run) throws E {
        return run(iterations, fixed, floorNs(false, shape), System::nanoTime, run);
    }

    /**
     * The warm-up of a measurement of {@code test} at {@code size} against {@code pair}: at
     * least {@link #FRESH_PEER_NS} when its responder is in another process, or when this JVM
     * has not measured that shape before.
     */
    static <E extends Exception> int run(int iterations, int fixed, PerfPair pair, String test, int size, Run<E> run) throws E {
        // The soft devices take their progress model from this property as they open.
        String shape = test + " " + size + " " + pair.description + " " + System.getProperty(PROGRESS_PROPERTY, "");
        return run(iterations, fixed, floorNs(pair.responder() == null, shape), System::nanoTime, run);
    }

    /**
     * The shortest default warm-up: {@link #FRESH_PEER_NS} against a responder in another
     * process, or for the first measurement of {@code shape} in this JVM; otherwise none.
     */
    static long floorNs(boolean responderElsewhere, String shape) {
        boolean first = MEASURED.add(shape);
        return responderElsewhere || first ? FRESH_PEER_NS : 0;
    }
}
