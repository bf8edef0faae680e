package dev.verbs4j;

/** Queue pair state ({@code enum ibv_qp_state}), IBTA 10.3. */
public enum QpState {
    RESET(0), INIT(1), RTR(2), RTS(3), SQD(4), SQE(5), ERR(6), UNKNOWN(7);

    private final int value;

    QpState(int value) {
        this.value = value;
    }

    /** The {@code IBV_QPS_*} number. */
    public int value() {
        return value;
    }

    /** The state with the given {@code IBV_QPS_*} number. */
    public static QpState of(int value) {
        return value >= 0 && value < 8 ? values()[value] : UNKNOWN;
    }
}
