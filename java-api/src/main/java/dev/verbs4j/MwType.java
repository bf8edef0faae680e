package dev.verbs4j;

/** Memory window type ({@code enum ibv_mw_type}). */
public enum MwType {
    /** Bound with a verb call ({@code ibv_bind_mw}), usable through any QP of the PD. */
    TYPE_1(1),
    /** Bound with a BIND_MW work request to one QP, usable only through that QP. */
    TYPE_2(2);

    private final int value;

    MwType(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_MW_TYPE_*} number.
     *
     * @return 1 or 2, as {@code ibv_alloc_mw} takes it
     */
    public int value() {
        return value;
    }
}
