package dev.verbs4j;

/** Flags of a send work request ({@code enum ibv_send_flags}). */
public enum SendFlag {
    /**
     * {@code IBV_SEND_FENCE}: the request waits until earlier RDMA READs and atomics of the queue pair
     * have completed.
     */
    FENCE(1),

    /**
     * {@code IBV_SEND_SIGNALED}: the request produces a completion even when the queue pair does not
     * signal all.
     */
    SIGNALED(1 << 1),

    /**
     * {@code IBV_SEND_SOLICITED}: the peer's receive completion raises an event on a queue armed for
     * solicited completions.
     */
    SOLICITED(1 << 2),

    /**
     * {@code IBV_SEND_INLINE}: the data is copied at post time, so the buffers may be reused at once.
     * Each entry is read through the segment it was added with
     * ({@link ScatterGatherList#add(java.lang.foreign.MemorySegment, long, int)}) or through the
     * registered region its lkey names; any other address is refused with {@code EINVAL}.
     */
    INLINE(1 << 3),

    /**
     * {@code IBV_SEND_IP_CSUM}: the device computes IP and L4 checksums (raw packet and UD queue pairs
     * with offload).
     */
    IP_CSUM(1 << 4);


    private final int value;

    SendFlag(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_SEND_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * Whether this flag is set in a flag word.
     *
     * @param flags a {@code send_flags} word
     * @return true if this bit is set in it
     */
    public boolean isSet(int flags) {
        return (flags & value) != 0;
    }
}
