package dev.verbs4j.softroce.engine;

/**
 * When an engine thread that stepped back for a polling application thread
 * ({@link DeviceEngine#help}) looks again whether the polls go on.
 * <p>
 * The first look comes one window after the last poll, when the polls may have stopped.
 * Each look that finds them still going doubles the wait for the next, up to a longest
 * wait: an application that has polled for a while tends to poll on, and each look wakes
 * the engine thread and takes a core from a polling thread for a moment. A look that finds
 * the polls stopped (or the help ended) starts the waits again from one window.
 */
final class StepBack {
    private final long windowNs;
    private final long longestNs;
    private long waitNs;

    StepBack(long windowNs, long longestNs) {
        if (windowNs <= 0 || longestNs < windowNs) {
            throw new IllegalArgumentException("window " + windowNs + " ns, longest wait " + longestNs + " ns");
        }
        this.windowNs = windowNs;
        this.longestNs = longestNs;
        this.waitNs = windowNs;
    }

    /**
     * How long to park before the next look, given when the application last helped
     * ({@code 0}: nobody helps now); {@code 0} when the engine thread takes over now.
     */
    long parkNanos(long helpedAtNs, long nowNs) {
        long sinceHelpNs = nowNs - helpedAtNs;
        if (helpedAtNs == 0 || sinceHelpNs >= windowNs) {
            waitNs = windowNs;
            return 0;
        }
        long parkNs = waitNs - Math.max(0, sinceHelpNs);
        waitNs = Math.min(2 * waitNs, longestNs);
        return parkNs;
    }
}
