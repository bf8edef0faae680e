package dev.verbs4j;

/** Queue pair transport service type ({@code enum ibv_qp_type}). */
public enum QpType {
    /** Reliable connected. */
    RC(2),
    /** Unreliable connected. */
    UC(3),
    /** Unreliable datagram. */
    UD(4);

    private final int value;

    QpType(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_QPT_*} number.
     *
     * @return the number {@code ibv_qp_init_attr.qp_type} holds
     */
    public int value() {
        return value;
    }

    /**
     * The type with the given {@code IBV_QPT_*} number.
     *
     * @param value an {@code ibv_qp_type} number
     * @return the type
     * @throws IllegalArgumentException for a type this API does not support
     */
    public static QpType of(int value) {
        for (QpType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown QP type " + value);
    }
}
