package dev.verbs4j;

/**
 * Whether registered memory is safe across {@code fork()} ({@code enum ibv_fork_status}), as
 * {@link Provider#forkStatus()} reports it.
 */
public enum ForkStatus {
    /** Not protected: a child's copy-on-write may leave the device writing to pages the parent no longer has. */
    DISABLED(0),
    /** Protected by {@link Provider#enableForkProtection()}: registered pages are not inherited by a child. */
    ENABLED(1),
    /** Nothing to protect: the kernel copies pinned pages on fork, or the provider pins none. */
    UNNEEDED(2);

    private final int value;

    ForkStatus(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_FORK_*} number.
     *
     * @return the number {@code ibv_is_fork_initialized} returns
     */
    public int value() {
        return value;
    }

    /**
     * The status of an {@code IBV_FORK_*} number.
     *
     * @param value what {@code ibv_is_fork_initialized} returned
     * @return the status
     * @throws IllegalArgumentException for an unknown number
     */
    public static ForkStatus of(int value) {
        for (ForkStatus s : values()) {
            if (s.value == value) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown fork status " + value);
    }
}
