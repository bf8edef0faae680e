package dev.verbs4j;

/** How far atomics are atomic ({@code enum ibv_atomic_cap}). */
public enum AtomicCapability {
    /** No atomic operations. */
    NONE,
    /** Atomic between operations of this device. */
    HCA,
    /** Atomic also against other devices and the CPU. */
    GLOB;

    /**
     * The {@code IBV_ATOMIC_*} number.
     *
     * @return the number {@code ibv_device_attr.atomic_cap} holds
     */
    public int value() {
        return ordinal();
    }

    /**
     * The capability with the given number.
     *
     * @param value an {@code ibv_device_attr.atomic_cap} number, 0-2
     * @return the capability
     * @throws ArrayIndexOutOfBoundsException for a number outside 0-2
     */
    public static AtomicCapability of(int value) {
        return values()[value];
    }
}
