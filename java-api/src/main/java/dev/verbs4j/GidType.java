package dev.verbs4j;

/** The protocol a GID table entry is for ({@code enum ibv_gid_type}). */
public enum GidType {
    /** InfiniBand, or RoCE v1 on providers that do not tell them apart. */
    IB(0),
    /** RoCE v1: GRH over Ethernet. */
    ROCE_V1(1),
    /** RoCE v2: UDP/IP, port 4791. */
    ROCE_V2(2);

    private final int value;

    GidType(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_GID_TYPE_*} number.
     *
     * @return the number {@code ibv_gid_entry.gid_type} holds
     */
    public int value() {
        return value;
    }

    /**
     * The type of an {@code IBV_GID_TYPE_*} number.
     *
     * @param value an {@code ibv_gid_entry.gid_type} number
     * @return the type
     * @throws IllegalArgumentException for an unknown number
     */
    public static GidType of(int value) {
        for (GidType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown GID type " + value);
    }
}
