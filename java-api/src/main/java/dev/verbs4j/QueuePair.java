package dev.verbs4j;

import java.util.Set;

/**
 * A queue pair ({@code struct ibv_qp} / {@code ibv_qp_ex}). It starts in
 * {@link QpState#RESET}; {@link #modify} moves it through INIT, RTR and RTS (see
 * {@link QpAttributes} for what each transition needs, or {@link RcConnector} for the
 * whole dance). Closing it destroys it ({@code ibv_destroy_qp}).
 */
public interface QueuePair extends AutoCloseable {
    /**
     * The queue pair number.
     * It is {@code ibv_qp.qp_num}: what the peer puts in its {@code dest_qp_num} or {@code remote_qpn}.
     *
     * @return the 24-bit number
     */
    int qpn();

    /**
     * The transport ({@code ibv_qp.qp_type}).
     *
     * @return the type given at creation
     */
    QpType type();

    /**
     * The protection domain the queue pair was created in ({@code ibv_qp.pd}).
     *
     * @return the domain
     */
    ProtectionDomain protectionDomain();

    /**
     * The completion queue of the send queue ({@code ibv_qp.send_cq}).
     *
     * @return the queue
     */
    CompletionQueue sendCq();

    /**
     * The completion queue of the receive queue ({@code ibv_qp.recv_cq}).
     *
     * @return the queue
     */
    CompletionQueue recvCq();

    /**
     * The shared receive queue, or {@code null}.
     * It is {@code ibv_qp.srq}.
     *
     * @return the queue, or null when the queue pair has its own receive queue
     */
    SharedReceiveQueue srq();

    /**
     * The current state.
     * It is {@code ibv_qp.state} as the last transition left it; a queue pair that failed moves to
     * {@link QpState#ERR} on its own.
     *
     * @return the state
     */
    QpState state();

    /**
     * Modifies the queue pair ({@code ibv_modify_qp}) with the attributes set in
     * {@code attributes} (their mask says which).
     *
     * @throws VerbsException {@code EINVAL} for an illegal transition or a missing or
     *         extra attribute for it (IBTA 11.2.1.2 / libibverbs rules)
     * @param attributes the attributes and the mask of those to apply
     */
    void modify(QpAttributes attributes);

    /**
     * Fills {@code out} with the current attributes ({@code ibv_query_qp}).
     *
     * @param out the object to fill; its mask is left alone
     * @return {@code out}
     * @throws VerbsException with the errno {@code ibv_query_qp} gives
     */
    QpAttributes query(QpAttributes out);

    /**
     * Posts one send work request; the request object may be reused at once.
     * It is {@code ibv_post_send} with one request, or the {@code ibv_wr_start} ...
     * {@code ibv_wr_complete} sequence of the extended API.
     *
     * @throws VerbsException {@code ENOMEM} when the send queue is full, {@code EINVAL}
     *         for an operation the QP was not created for or a malformed request
     *         (too many entries, inline data too long, wrong QP state, a closed address
     *         handle, window or region)
     * @param wr the request; read during the call only
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
     * @param wrs the requests, in posting order
     * @param count how many of {@code wrs} to post, from the first
     * @throws VerbsException as {@link #postSend(SendWorkRequest)}, for the first request refused
     */
    default int postSend(SendWorkRequest[] wrs, int count) {
        for (int i = 0; i < count; i++) {
            postSend(wrs[i]);
        }
        return count;
    }

    /**
     * Posts a receive request.
     * It is {@code ibv_post_recv} with one request.
     *
     * @throws VerbsException {@code ENOMEM} when the receive queue is full, {@code EINVAL}
     *         when the QP uses an SRQ or is in RESET
     * @param wr the request; read during the call only
     */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * The ordering guarantees of the data an operation of this queue pair places in the
     * remote memory ({@code ibv_query_qp_data_in_order} with {@code IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS}).
     * Empty when nothing is promised: then only a completion (or a later message) tells that
     * a message's data is all there.
     *
     * @param opcode the operation
     * @return the guarantees, possibly empty
     */
    Set<DataInOrder> dataInOrder(WrOpcode opcode);

    /**
     * Destroys the queue pair; outstanding requests are dropped without completions, as in libibverbs.
     *
     * @throws VerbsException with the errno {@code ibv_destroy_qp} gives
     */
    @Override
    void close();
}
