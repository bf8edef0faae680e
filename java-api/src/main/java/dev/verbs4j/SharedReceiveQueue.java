package dev.verbs4j;

/**
 * A shared receive queue ({@code struct ibv_srq}): one pool of receives for many queue
 * pairs. Closing it while queue pairs use it fails with {@code EBUSY}.
 */
public interface SharedReceiveQueue extends AutoCloseable {
    /**
     * Posts a receive ({@code ibv_post_srq_recv}); any queue pair on the queue may consume it.
     *
     * @param wr the request; read during the call only
     * @throws VerbsException {@code ENOMEM} when full
     */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * The queue's depth in receive requests ({@code ibv_srq_attr.max_wr}).
     *
     * @return the depth
     */
    int maxWr();

    /**
     * The scatter entries per receive ({@code ibv_srq_attr.max_sge}).
     *
     * @return the count
     */
    int maxSge();

    /**
     * The current limit: when fewer receives remain, {@link AsyncEventType#SRQ_LIMIT_REACHED} fires once.
     * It is {@code ibv_srq_attr.srq_limit}.
     *
     * @return the limit; 0 when not armed
     */
    int limit();

    /**
     * Arms the limit event ({@code ibv_modify_srq} with {@code IBV_SRQ_LIMIT}).
     *
     * @param limit the number of posted receives below which the event fires; 0 disarms
     * @throws VerbsException {@code EINVAL} for a negative limit or one above the queue's depth
     */
    void armLimit(int limit);

    /**
     * Resizes the queue ({@code ibv_modify_srq} with {@code IBV_SRQ_MAX_WR}), keeping the receives posted to it.
     * Devices that can set {@link DeviceCapability#SRQ_RESIZE}.
     *
     * @param maxWr at least this many receives
     * @throws VerbsException {@code EINVAL} if {@code maxWr} is above the device limit, below the receives posted,
     *                        or not above the armed limit; {@code EOPNOTSUPP} where the device cannot resize
     */
    void resize(int maxWr);

    /**
     * Destroys the SRQ ({@code ibv_destroy_srq}).
     *
     * @throws VerbsException {@code EBUSY} while queue pairs use it
     */
    @Override
    void close();
}
