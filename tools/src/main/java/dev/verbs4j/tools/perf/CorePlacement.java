package dev.verbs4j.tools.perf;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How far apart this machine's cores are right now, by the round trip of a value between
 * two threads that spin on it: a few tens of nanoseconds where the two share a cache, some
 * hundreds where every handover crosses to another die.
 * <p>
 * On a virtual machine the host decides, and it moves the virtual CPUs while a run goes on.
 * On the 2-core development machine (a KVM guest on an AMD EPYC) the round trip took 30-75 ns
 * or 315-340 ns, the one or the other for seconds to minutes at a time; a UDP stream with a
 * thread per side moved 20-33 Gb/s in the first case and 9-12 in the second, one run after
 * the other. Every stream with a thread per side hands each datagram's bytes from one core
 * to the other, the engine's with engine threads or between two processes as much as the
 * bare UDP stream, so the targets table measures the placement around each bandwidth and its
 * baseline, and measures both again when it moved between them.
 */
final class CorePlacement {
    /** A round trip above this many nanoseconds crosses a die: well between the two groups measured. */
    static final double FAR_NS = 200;
    private static final long STOP = -1;

    private CorePlacement() {
    }

    /** The mean round trip in nanoseconds over {@code durationNs} of {@code clock}, after a short warm-up. */
    static double roundTripNs(long durationNs, LongSupplier clock) {
        AtomicLong ping = new AtomicLong();
        AtomicLong pong = new AtomicLong();
        Thread echo = Thread.ofPlatform().name("perf core placement").start(() -> {
            long seen = 0;
            while (true) {
                long value;
                while ((value = ping.get()) == seen) {
                    Thread.onSpinWait();
                }
                if (value == STOP) {
                    return;
                }
                seen = value;
                pong.set(value);
            }
        });
        long next = 0;
        try {
            for (int i = 0; i < 20_000; i++) {
                next = bounce(ping, pong, next);
            }
            long start = clock.getAsLong();
            long trips = 0;
            long elapsed;
            do {
                for (int i = 0; i < 1_000; i++) {
                    next = bounce(ping, pong, next);
                }
                trips += 1_000;
                elapsed = clock.getAsLong() - start;
            } while (elapsed < durationNs);
            return elapsed / (double) trips;
        } finally {
            ping.set(STOP);
            try {
                echo.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static long bounce(AtomicLong ping, AtomicLong pong, long last) {
        long value = last + 1;
        ping.set(value);
        while (pong.get() != value) {
            Thread.onSpinWait();
        }
        return value;
    }

    /** Whether two round trips put the cores in the same group (both near, or both far). */
    static boolean same(double aNs, double bNs) {
        return (aNs > FAR_NS) == (bNs > FAR_NS);
    }
}
