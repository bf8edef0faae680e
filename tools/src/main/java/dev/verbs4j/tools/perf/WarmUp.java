package dev.verbs4j.tools.perf;

/**
 * How many unmeasured operations run before a measurement: as many as it measures, up to
 * {@value #MAX}. A JVM compiles a path only after it has run it some thousands of times, and
 * a {@code perf --server} is a fresh JVM for every client: with the old thousand, the first
 * two-process run measured the server's interpreted code (an 8-byte WRITE ping-pong took
 * 5.0 µs in a fresh pair and 4.0 µs in the same pair's third run).
 */
final class WarmUp {
    static final int MAX = 20_000;

    private WarmUp() {
    }

    /** The unmeasured operations before a measurement of {@code iterations}. */
    static int iterations(int iterations) {
        return Math.min(iterations, MAX);
    }
}
