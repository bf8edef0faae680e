package dev.verbs4j;

/** Path MTU of a queue pair or port ({@code enum ibv_mtu}). */
public enum Mtu {
    MTU_256(1, 256), MTU_512(2, 512), MTU_1024(3, 1024), MTU_2048(4, 2048), MTU_4096(5, 4096);

    private final int value;
    private final int bytes;

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /** The {@code IBV_MTU_*} number. */
    public int value() {
        return value;
    }

    /** The payload size in bytes. */
    public int bytes() {
        return bytes;
    }

    /** The MTU with the given {@code IBV_MTU_*} number. */
    public static Mtu of(int value) {
        if (value < 1 || value > 5) {
            throw new IllegalArgumentException("unknown MTU enum value " + value);
        }
        return values()[value - 1];
    }

    /** The MTU whose payload is exactly {@code bytes}. */
    public static Mtu ofBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new IllegalArgumentException("no IB MTU of " + bytes + " bytes");
    }

    /** The largest IB MTU whose packets fit an Ethernet MTU, as the kernel rxe derives it (80 header bytes). */
    public static Mtu fittingEthernetMtu(int ethernetMtu) {
        Mtu best = MTU_256;
        for (Mtu m : values()) {
            if (m.bytes <= ethernetMtu - 80) {
                best = m;
            }
        }
        return best;
    }
}
