package dev.verbs4j;

/** Path MTU of a queue pair or port ({@code enum ibv_mtu}). */
public enum Mtu {
    /** {@code IBV_MTU_256}: 256-byte payloads. */
    MTU_256(1, 256),

    /** {@code IBV_MTU_512}: 512-byte payloads. */
    MTU_512(2, 512),

    /** {@code IBV_MTU_1024}: 1024-byte payloads, the largest a 1500-byte Ethernet MTU carries. */
    MTU_1024(3, 1024),

    /** {@code IBV_MTU_2048}: 2048-byte payloads. */
    MTU_2048(4, 2048),

    /**
     * {@code IBV_MTU_4096}: 4096-byte payloads, the largest; RoCE needs an Ethernet MTU of at least
     * 4176 for it.
     */
    MTU_4096(5, 4096);


    private final int value;
    private final int bytes;

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /**
     * The {@code IBV_MTU_*} number.
     *
     * @return 1 for 256 bytes up to 5 for 4096, as {@code path_mtu} and {@code active_mtu} hold it
     */
    public int value() {
        return value;
    }

    /**
     * The payload size in bytes.
     *
     * @return 256, 512, 1024, 2048 or 4096
     */
    public int bytes() {
        return bytes;
    }

    /**
     * The MTU with the given {@code IBV_MTU_*} number.
     *
     * @param value 1-5
     * @return the MTU
     * @throws IllegalArgumentException for a number outside 1-5
     */
    public static Mtu of(int value) {
        if (value < 1 || value > 5) {
            throw new IllegalArgumentException("unknown MTU enum value " + value);
        }
        return values()[value - 1];
    }

    /**
     * The MTU whose payload is exactly {@code bytes}.
     *
     * @param bytes 256, 512, 1024, 2048 or 4096
     * @return the MTU
     * @throws IllegalArgumentException for any other size
     */
    public static Mtu ofBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new IllegalArgumentException("no IB MTU of " + bytes + " bytes");
    }

    /**
     * The largest IB MTU whose packets fit an Ethernet MTU, as the kernel rxe derives it (80 header bytes).
     *
     * @param ethernetMtu the network device's MTU in bytes (1500 gives {@link #MTU_1024})
     * @return the MTU, at least {@link #MTU_256}
     */
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
