package dev.verbs4j;

/**
 * A completion queue ({@code struct ibv_cq}). Closing it while queue pairs use it fails
 * with {@code EBUSY}. When more completions arrive than it holds, the queue overflows:
 * a {@link AsyncEventType#CQ_ERR} event is raised and its queue pairs go to the error state.
 */
public interface CompletionQueue extends AutoCloseable {
    /**
     * The number of entries (at least what was asked for at creation or at the last {@link #resize}).
     * It is {@code ibv_cq.cqe}.
     *
     * @return the entries
     */
    int capacity();

    /**
     * The channel that receives this queue's events, or {@code null}.
     * It is {@code ibv_cq.channel}.
     *
     * @return the channel given at creation, or null
     */
    CompletionChannel channel();

    /**
     * Polls up to {@code max} completions into {@code out[0..]} ({@code ibv_poll_cq}),
     * oldest first, allocating nothing.
     *
     * @return the number filled, 0 when the queue is empty
     * @param out the completions to fill, from index 0
     * @param max the most to fill, at most {@code out.length}
     * @throws VerbsException with the errno {@code ibv_poll_cq} gives
     */
    int poll(WorkCompletion[] out, int max);

    /**
     * Polls up to {@code out.length} completions.
     *
     * @param out the completions to fill, from index 0
     * @return the number filled, 0 when the queue is empty
     */
    default int poll(WorkCompletion[] out) {
        return poll(out, out.length);
    }

    /**
     * Arms the queue ({@code ibv_req_notify_cq}): the next completion (or, with
     * {@code solicitedOnly}, the next solicited or error completion) raises one event on
     * the channel.
     *
     * @throws VerbsException {@code EINVAL} when the queue has no channel
     * @param solicitedOnly true to wait for a solicited or failed completion only
     */
    void requestNotify(boolean solicitedOnly);

    /**
     * Resizes the queue ({@code ibv_resize_cq}), keeping the completions it holds.
     *
     * @param minEntries at least this many entries
     * @throws VerbsException {@code EINVAL} if {@code minEntries} is below 1, above the device limit, or below the
     *                        number of completions the queue holds; {@code EOPNOTSUPP} where the device cannot resize
     */
    void resize(int minEntries);

    /**
     * Destroys the queue ({@code ibv_destroy_cq}).
     *
     * @throws VerbsException {@code EBUSY} while queue pairs use it
     */
    @Override
    void close();
}
