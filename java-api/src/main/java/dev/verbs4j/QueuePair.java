package dev.verbs4j;

import java.util.Set;

/**
 * A queue pair ({@code struct ibv_qp} / {@code ibv_qp_ex}). It starts in
 * {@link QpState#RESET}; {@link #modify} moves it through INIT, RTR and RTS (see
 * {@link QpAttributes} for what each transition needs, or {@link RcConnector} for the
 * whole dance). Closing it destroys it ({@code ibv_destroy_qp}).
 */
public interface QueuePair extends AutoCloseable {
    /** The queue pair number. */
    int qpn();

    QpType type();

    ProtectionDomain protectionDomain();

    CompletionQueue sendCq();

    CompletionQueue recvCq();

    /** The shared receive queue, or {@code null}. */
    SharedReceiveQueue srq();

    /** The current state. */
    QpState state();

    /**
     * Modifies the queue pair ({@code ibv_modify_qp}) with the attributes set in
     * {@code attributes} (their mask says which).
     *
     * @throws VerbsException {@code EINVAL} for an illegal transition or a missing or
     *         extra attribute for it (IBTA 11.2.1.2 / libibverbs rules)
     */
    void modify(QpAttributes attributes);

    /** Fills {@code out} with the current attributes ({@code ibv_query_qp}). */
    QpAttributes query(QpAttributes out);

    /**
     * Posts one send work request; the request object may be reused at once.
     *
     * @throws VerbsException {@code ENOMEM} when the send queue is full, {@code EINVAL}
     *         for an operation the QP was not created for or a malformed request
     *         (too many entries, inline data too long, wrong QP state, a closed address
     *         handle, window or region)
     */
    void postSend(SendWorkRequest wr);

    /**
     * Posts {@code count} send requests in order, as one list ({@code ibv_post_send} with
     * a chained list). A request that is refused ends the list: the requests before it stay
     * posted, the ones after it are not, and the exception is that request's. A provider
     * that posts a list as one batch may refuse all of it at once (the send queue has no
     * room for all of it, or the batch fails as a whole); then nothing is posted.
     *
     * @return {@code count}
     */
    default int postSend(SendWorkRequest[] wrs, int count) {
        for (int i = 0; i < count; i++) {
            postSend(wrs[i]);
        }
        return count;
    }

    /**
     * Posts a receive request.
     *
     * @throws VerbsException {@code ENOMEM} when the receive queue is full, {@code EINVAL}
     *         when the QP uses an SRQ or is in RESET
     */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * The ordering guarantees of the data an operation of this queue pair places in the
     * remote memory ({@code ibv_query_qp_data_in_order} with {@code IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS}).
     * Empty when nothing is promised: then only a completion (or a later message) tells that
     * a message's data is all there.
     */
    Set<DataInOrder> dataInOrder(WrOpcode opcode);

    /** Destroys the queue pair; outstanding requests are dropped without completions, as in libibverbs. */
    @Override
    void close();
}
