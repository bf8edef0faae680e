package dev.verbs4j;

/** Asynchronous event kind ({@code enum ibv_event_type}). */
public enum AsyncEventType {
    /** {@code IBV_EVENT_CQ_ERR}: a completion queue overran; its events carry the queue. */
    CQ_ERR,

    /**
     * {@code IBV_EVENT_QP_FATAL}: a queue pair hit an error that no completion reports; it is now in
     * the error state.
     */
    QP_FATAL,

    /**
     * {@code IBV_EVENT_QP_REQ_ERR}: the responder side saw an invalid request; the queue pair is in the
     * error state.
     */
    QP_REQ_ERR,

    /**
     * {@code IBV_EVENT_QP_ACCESS_ERR}: the responder side saw a local access violation; the queue pair
     * is in the error state.
     */
    QP_ACCESS_ERR,

    /** {@code IBV_EVENT_COMM_EST}: the first packet arrived at a queue pair in RTR. */
    COMM_EST,

    /** {@code IBV_EVENT_SQ_DRAINED}: a send queue in SQD has no outstanding requests left. */
    SQ_DRAINED,

    /** {@code IBV_EVENT_PATH_MIG}: a connection migrated to its alternate path. */
    PATH_MIG,

    /** {@code IBV_EVENT_PATH_MIG_ERR}: migrating to the alternate path failed. */
    PATH_MIG_ERR,

    /**
     * {@code IBV_EVENT_DEVICE_FATAL}: the device failed; its resources are unusable and should be
     * closed.
     */
    DEVICE_FATAL,

    /** {@code IBV_EVENT_PORT_ACTIVE}: a port became active. */
    PORT_ACTIVE,

    /** {@code IBV_EVENT_PORT_ERR}: a port left the active state. */
    PORT_ERR,

    /** {@code IBV_EVENT_LID_CHANGE}: a port's LID changed. */
    LID_CHANGE,

    /** {@code IBV_EVENT_PKEY_CHANGE}: a port's P_Key table changed. */
    PKEY_CHANGE,

    /** {@code IBV_EVENT_SM_CHANGE}: the subnet manager of a port changed. */
    SM_CHANGE,

    /** {@code IBV_EVENT_SRQ_ERR}: a shared receive queue failed. */
    SRQ_ERR,

    /**
     * {@code IBV_EVENT_SRQ_LIMIT_REACHED}: an armed shared receive queue fell below its limit; it must
     * be armed again.
     */
    SRQ_LIMIT_REACHED,

    /**
     * {@code IBV_EVENT_QP_LAST_WQE_REACHED}: a queue pair on a shared receive queue in the error state
     * will consume no more receives.
     */
    QP_LAST_WQE_REACHED,

    /** {@code IBV_EVENT_CLIENT_REREGISTER}: the subnet manager asks clients to register again. */
    CLIENT_REREGISTER,

    /**
     * {@code IBV_EVENT_GID_CHANGE}: a port's GID table changed (on RoCE: an address was added or
     * removed).
     */
    GID_CHANGE,

    /** {@code IBV_EVENT_WQ_FATAL}: a work queue failed. */
    WQ_FATAL;


    /**
     * The {@code IBV_EVENT_*} number.
     *
     * @return the number {@code ibv_async_event.event_type} holds
     */
    public int value() {
        return ordinal();
    }

    /**
     * The kind with the given number.
     *
     * @param value an {@code ibv_async_event.event_type} number
     * @return the kind
     * @throws ArrayIndexOutOfBoundsException if the number is not an {@code enum ibv_event_type} value
     */
    public static AsyncEventType of(int value) {
        return values()[value];
    }
}
