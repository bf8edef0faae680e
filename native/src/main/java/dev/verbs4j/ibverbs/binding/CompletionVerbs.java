package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByPtrPtr;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * Completion channels and completion queues: creation, notification and
 * {@code ibv_poll_cq}. The extended CQ poll API is in
 * {@link ExtendedCompletionVerbs}.
 *
 * <p>Return conventions are libibverbs' own. "errno in
 * {@link Errno#lastErrno()}" marks calls that report failure only through
 * errno; it is captured inside the call.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class CompletionVerbs {
    static {
        Loader.load();
    }

    private CompletionVerbs() {
    }

    /** {@code ibv_create_comp_channel}: a channel, or null with errno in {@link Errno#lastErrno()}. */
    @Name("verbs4j::keep_errno<ibv_create_comp_channel>")
    public static native ibv_comp_channel ibv_create_comp_channel(ibv_context context);

    /** {@code ibv_destroy_comp_channel}: 0 or an errno value (EBUSY while CQs use it). */
    public static native int ibv_destroy_comp_channel(ibv_comp_channel channel);

    /**
     * {@code ibv_create_cq}: a CQ of at least {@code cqe} entries, or null
     * with errno in {@link Errno#lastErrno()}.
     *
     * @param channel null when completion events are not used
     * @param comp_vector below {@code ibv_context.num_comp_vectors}
     */
    @Name("verbs4j::keep_errno<ibv_create_cq>")
    public static native ibv_cq ibv_create_cq(ibv_context context, int cqe, Pointer cq_context,
            ibv_comp_channel channel, int comp_vector);

    /** {@code ibv_create_cq_ex}: an extended CQ, or null with errno in {@link Errno#lastErrno()}. */
    @Name("verbs4j::keep_errno<ibv_create_cq_ex>")
    public static native ibv_cq_ex ibv_create_cq_ex(ibv_context context, ibv_cq_init_attr_ex cq_attr);

    /** {@code ibv_cq_ex_to_cq}: the same CQ seen as {@code ibv_cq} (for destroy, notify, events). */
    public static native ibv_cq ibv_cq_ex_to_cq(ibv_cq_ex cq);

    /** {@code ibv_resize_cq}: 0 or an errno value; {@code cq.cqe} holds the new capacity. */
    public static native int ibv_resize_cq(ibv_cq cq, int cqe);

    /**
     * {@code ibv_destroy_cq}: 0 or an errno value (EBUSY while QPs use it).
     * Waits until every event got from the channel for it is acknowledged.
     */
    public static native int ibv_destroy_cq(ibv_cq cq);

    /**
     * {@code ibv_req_notify_cq}: arms the CQ to put one event on its
     * channel for the next completion (only solicited ones when
     * {@code solicited_only} is non-zero); 0 or an errno value.
     */
    public static native int ibv_req_notify_cq(ibv_cq cq, int solicited_only);

    /**
     * {@code ibv_get_cq_event}: takes one event from the channel; blocks
     * unless {@code channel.fd} is non-blocking. 0, or -1 with errno in
     * {@link Errno#lastErrno()} ({@link Errno#EAGAIN}: no event pending).
     * Events must be acknowledged with {@link #ibv_ack_cq_events}.
     *
     * @param cq receives the CQ of the event: the object's address is overwritten
     * @param cq_context receives that CQ's context: the object's address is overwritten
     */
    @Name("verbs4j::keep_errno<ibv_get_cq_event>")
    public static native int ibv_get_cq_event(ibv_comp_channel channel, @ByPtrPtr ibv_cq cq,
            @Cast("void**") @ByPtrPtr Pointer cq_context);

    /** {@code ibv_ack_cq_events}: acknowledges {@code nevents} events of the CQ at once. */
    public static native void ibv_ack_cq_events(ibv_cq cq, @Cast("unsigned int") int nevents);

    /**
     * {@code ibv_poll_cq}: moves up to {@code num_entries} completions into
     * {@code wc} (an array of at least that many, from its position); the
     * count, or a negative value on failure (errno not defined). Fewer than
     * {@code num_entries} means the CQ is empty.
     */
    public static native int ibv_poll_cq(ibv_cq cq, int num_entries, ibv_wc wc);

    /** {@code ibv_wc_status_str}: libibverbs' text for an {@code IBV_WC_*} status, e.g. "remote access error". */
    public static native @Cast("const char*") String ibv_wc_status_str(@Cast("ibv_wc_status") int status);
}
