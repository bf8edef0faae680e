package dev.verbs4j;

/**
 * A receive work request ({@code struct ibv_recv_wr}): where an incoming SEND lands.
 * Reusable and caller-owned: posting copies it, so it may be refilled at once.
 */
public final class ReceiveWorkRequest {
    private final ScatterGatherList sges;
    private long wrId;

    /** A request with room for {@code maxSge} scatter entries. */
    public ReceiveWorkRequest(int maxSge) {
        sges = new ScatterGatherList(maxSge);
    }

    /** A request with one scatter entry. */
    public ReceiveWorkRequest() {
        this(1);
    }

    /** The caller's id, returned in the completion. */
    public long wrId() {
        return wrId;
    }

    /** Sets the caller's id. */
    public ReceiveWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    /** The scatter list. */
    public ScatterGatherList sges() {
        return sges;
    }

    /** Sets one scatter entry: {@code length} bytes of {@code region} at {@code offset}. */
    public ReceiveWorkRequest buffer(MemoryRegion region, long offset, int length) {
        sges.set(region, offset, length);
        return this;
    }
}
