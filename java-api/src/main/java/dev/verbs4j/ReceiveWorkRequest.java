package dev.verbs4j;

/**
 * A receive work request ({@code struct ibv_recv_wr}): where an incoming SEND lands.
 * Reusable and caller-owned: posting copies it, so it may be refilled at once.
 */
public final class ReceiveWorkRequest {
    private final ScatterGatherList sges;
    private long wrId;

    /**
     * A request with room for {@code maxSge} scatter entries.
     *
     * @param maxSge the scatter list's capacity, at least 1; a post fails with {@code EINVAL} when the
     *        entries in use exceed the queue's {@code max_recv_sge}
     * @throws IllegalArgumentException if {@code maxSge} is less than 1
     */
    public ReceiveWorkRequest(int maxSge) {
        sges = new ScatterGatherList(maxSge);
    }

    /** A request with one scatter entry. */
    public ReceiveWorkRequest() {
        this(1);
    }

    /**
     * The caller's id, returned in the completion.
     * It is {@code ibv_recv_wr.wr_id}.
     *
     * @return the id; 0 for a new request
     */
    public long wrId() {
        return wrId;
    }

    /**
     * Sets the caller's id.
     *
     * @param id any 64-bit value
     * @return this request
     */
    public ReceiveWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    /**
     * The scatter list.
     * It is {@code sg_list} and {@code num_sge}: the buffers an incoming message fills in order.
     *
     * @return the request's own list
     */
    public ScatterGatherList sges() {
        return sges;
    }

    /**
     * Sets one scatter entry: {@code length} bytes of {@code region} at {@code offset}.
     * The region needs {@link Access#LOCAL_WRITE}.
     *
     * @param region the registered memory
     * @param offset bytes from the region's start
     * @param length bytes the message may fill; a longer message fails with {@link WcStatus#LOC_LEN_ERR}
     * @return this request
     */
    public ReceiveWorkRequest buffer(MemoryRegion region, long offset, int length) {
        sges.set(region, offset, length);
        return this;
    }
}
