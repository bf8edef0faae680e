package dev.verbs4j;

/** Queue pair state ({@code enum ibv_qp_state}), IBTA 10.3. */
public enum QpState {
    /** {@code IBV_QPS_RESET}: just created or reset; nothing is processed and queued requests are gone. */
    RESET(0),

    /** {@code IBV_QPS_INIT}: receives may be posted but nothing is processed; sends are refused. */
    INIT(1),

    /** {@code IBV_QPS_RTR}: ready to receive: incoming packets are processed, sends are still refused. */
    RTR(2),

    /** {@code IBV_QPS_RTS}: ready to send: the queue pair is fully working. */
    RTS(3),

    /** {@code IBV_QPS_SQD}: the send queue drains: requests already started finish, new ones wait. */
    SQD(4),

    /** {@code IBV_QPS_SQE}: send queue error (UC and UD): a send failed; receives still work. */
    SQE(5),

    /** {@code IBV_QPS_ERR}: outstanding and new requests complete with {@link WcStatus#WR_FLUSH_ERR}. */
    ERR(6),

    /** {@code IBV_QPS_UNKNOWN}: a state number this API does not know. */
    UNKNOWN(7);


    private final int value;

    QpState(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_QPS_*} number.
     *
     * @return the number {@code ibv_qp_attr.qp_state} holds
     */
    public int value() {
        return value;
    }

    /**
     * The state with the given {@code IBV_QPS_*} number.
     *
     * @param value an {@code ibv_qp_attr.qp_state} number
     * @return the state, {@link #UNKNOWN} for a number outside 0-7
     */
    public static QpState of(int value) {
        return value >= 0 && value < 8 ? values()[value] : UNKNOWN;
    }
}
