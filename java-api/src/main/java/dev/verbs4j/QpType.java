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

    /** The {@code IBV_QPT_*} number. */
    public int value() {
        return value;
    }

    /** The type with the given {@code IBV_QPT_*} number. */
    public static QpType of(int value) {
        for (QpType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown QP type " + value);
    }
}
