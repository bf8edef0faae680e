package dev.verbs4j;

/** How far atomics are atomic ({@code enum ibv_atomic_cap}). */
public enum AtomicCapability {
    /** No atomic operations. */
    NONE,
    /** Atomic between operations of this device. */
    HCA,
    /** Atomic also against other devices and the CPU. */
    GLOB;

    /** The {@code IBV_ATOMIC_*} number. */
    public int value() {
        return ordinal();
    }

    /** The capability with the given number. */
    public static AtomicCapability of(int value) {
        return values()[value];
    }
}
