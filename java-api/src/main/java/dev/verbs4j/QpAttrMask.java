package dev.verbs4j;

/** Which attributes a {@link QueuePair#modify} sets ({@code enum ibv_qp_attr_mask}). */
public enum QpAttrMask {
    /** {@code IBV_QP_STATE}: the next state; every modify sets it. */
    STATE(1),

    /** {@code IBV_QP_CUR_STATE}: the state the caller believes current. */
    CUR_STATE(1 << 1),

    /**
     * {@code IBV_QP_EN_SQD_ASYNC_NOTIFY}: raise {@link AsyncEventType#SQ_DRAINED} when the send queue
     * drains.
     */
    EN_SQD_ASYNC_NOTIFY(1 << 2),

    /** {@code IBV_QP_ACCESS_FLAGS}: the remote access rights. */
    ACCESS_FLAGS(1 << 3),

    /** {@code IBV_QP_PKEY_INDEX}: the partition key index. */
    PKEY_INDEX(1 << 4),

    /** {@code IBV_QP_PORT}: the physical port. */
    PORT(1 << 5),

    /** {@code IBV_QP_QKEY}: the Q_Key of a UD queue pair. */
    QKEY(1 << 6),

    /** {@code IBV_QP_AV}: the primary path's address vector. */
    AV(1 << 7),

    /** {@code IBV_QP_PATH_MTU}: the path MTU. */
    PATH_MTU(1 << 8),

    /** {@code IBV_QP_TIMEOUT}: the local ACK timeout. */
    TIMEOUT(1 << 9),

    /** {@code IBV_QP_RETRY_CNT}: the transport retry count. */
    RETRY_CNT(1 << 10),

    /** {@code IBV_QP_RNR_RETRY}: the RNR retry count. */
    RNR_RETRY(1 << 11),

    /** {@code IBV_QP_RQ_PSN}: the first expected receive PSN. */
    RQ_PSN(1 << 12),

    /** {@code IBV_QP_MAX_QP_RD_ATOMIC}: the initiator depth. */
    MAX_QP_RD_ATOMIC(1 << 13),

    /** {@code IBV_QP_ALT_PATH}: the alternate path (path migration; not settable through this API). */
    ALT_PATH(1 << 14),

    /** {@code IBV_QP_MIN_RNR_TIMER}: the RNR NAK timer. */
    MIN_RNR_TIMER(1 << 15),

    /** {@code IBV_QP_SQ_PSN}: the first send PSN. */
    SQ_PSN(1 << 16),

    /** {@code IBV_QP_MAX_DEST_RD_ATOMIC}: the responder resources. */
    MAX_DEST_RD_ATOMIC(1 << 17),

    /** {@code IBV_QP_PATH_MIG_STATE}: the path migration state. */
    PATH_MIG_STATE(1 << 18),

    /** {@code IBV_QP_CAP}: the queue capacities. */
    CAP(1 << 19),

    /** {@code IBV_QP_DEST_QPN}: the peer's queue pair number. */
    DEST_QPN(1 << 20),

    /** {@code IBV_QP_RATE_LIMIT}: a packet pacing rate (raw packet queue pairs). */
    RATE_LIMIT(1 << 25);


    private final int value;

    QpAttrMask(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_QP_*} bit.
     *
     * @return the bit's value
     */
    public int value() {
        return value;
    }

    /**
     * Whether this bit is set in a mask.
     *
     * @param mask an {@code attr_mask} word
     * @return true if this bit is set in it
     */
    public boolean isSet(int mask) {
        return (mask & value) != 0;
    }
}
