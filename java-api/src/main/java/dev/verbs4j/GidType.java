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

    /** The {@code IBV_GID_TYPE_*} number. */
    public int value() {
        return value;
    }

    /** The type of an {@code IBV_GID_TYPE_*} number. @throws IllegalArgumentException for an unknown one */
    public static GidType of(int value) {
        for (GidType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown GID type " + value);
    }
}
