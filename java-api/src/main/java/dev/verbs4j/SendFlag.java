package dev.verbs4j;

/** Flags of a send work request ({@code enum ibv_send_flags}). */
public enum SendFlag {
    FENCE(1), SIGNALED(1 << 1), SOLICITED(1 << 2), INLINE(1 << 3), IP_CSUM(1 << 4);

    private final int value;

    SendFlag(int value) {
        this.value = value;
    }

    /** The {@code IBV_SEND_*} bit. */
    public int value() {
        return value;
    }

    /** Whether this flag is set in a flag word. */
    public boolean isSet(int flags) {
        return (flags & value) != 0;
    }
}
