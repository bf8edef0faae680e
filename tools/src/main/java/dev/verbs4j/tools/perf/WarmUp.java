package dev.verbs4j.tools.perf;

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
 */
final class WarmUp {
    static final int MAX = 20_000;

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
     * the first half and the rest (one run for one operation, none for 0); returns how many.
     */
    static <E extends Exception> int run(int iterations, int fixed, Run<E> run) throws E {
        int n = operations(iterations, fixed);
        if (n > 1) {
            run.run(n / 2);
        }
        if (n > 0) {
            run.run(n - n / 2);
        }
        return n;
    }
}
