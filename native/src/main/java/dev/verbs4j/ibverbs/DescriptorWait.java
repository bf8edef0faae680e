package dev.verbs4j.ibverbs;

import dev.verbs4j.ibverbs.binding.FileDescriptors;

import java.time.Duration;

/**
 * Timed waits on the non-blocking descriptors of completion channels and async events:
 * {@code poll(2)} with the time left, then the caller's get-event call, which may still
 * find nothing ({@code EAGAIN}) when another thread took the event first.
 */
final class DescriptorWait {
    private static final int EINTR = 4;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final long startNs;
    private final long timeoutNs;

    private DescriptorWait(long startNs, long timeoutNs) {
        this.startNs = startNs;
        this.timeoutNs = timeoutNs;
    }

    /** A wait of at most {@code timeout} (negative counts as zero), starting now. */
    static DescriptorWait of(Duration timeout) {
        long ns;
        try {
            ns = Math.max(0, timeout.toNanos());
        } catch (ArithmeticException tooLong) {
            ns = Long.MAX_VALUE;
        }
        return new DescriptorWait(System.nanoTime(), ns);
    }

    /** The time left in whole milliseconds, rounded up so a wait never ends early; 0 when over. */
    int remainingMillis() {
        long left = timeoutNs - (System.nanoTime() - startNs);
        if (left <= 0) {
            return 0;
        }
        long millis = left / NANOS_PER_MILLI + (left % NANOS_PER_MILLI == 0 ? 0 : 1);
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }

    /**
     * Waits until {@code fd} is readable (or in error, which the following read reports).
     *
     * @return false when the time is up first
     */
    boolean awaitReadable(int fd) {
        while (true) {
            int millis = remainingMillis();
            int ready = FileDescriptors.pollReadable(fd, millis);
            if (ready > 0) {
                return true;
            }
            if (ready == 0 || ready == -EINTR) {
                if (remainingMillis() == 0) {
                    return false;
                }
                continue;
            }
            throw NativeErrors.failure(-ready, "poll(fd " + fd + ")");
        }
    }
}
