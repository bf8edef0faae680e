package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.ByPtrPtr;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * Shared receive queues.
 *
 * <p>Return conventions are libibverbs' own. "errno in
 * {@link Errno#lastErrno()}" marks calls that report failure only through
 * errno; it is captured inside the call.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class SharedReceiveQueueVerbs {
    static {
        Loader.load();
    }

    private SharedReceiveQueueVerbs() {
    }

    /**
     * {@code ibv_create_srq}: an SRQ, or null with errno in
     * {@link Errno#lastErrno()}; attr is updated with the sizes granted.
     */
    @Name("verbs4j::keep_errno<ibv_create_srq>")
    public static native ibv_srq ibv_create_srq(ibv_pd pd, ibv_srq_init_attr srq_init_attr);

    /**
     * {@code ibv_modify_srq}: 0 or an errno value.
     *
     * @param srq_attr_mask {@code IBV_SRQ_MAX_WR} (resize) and/or {@code IBV_SRQ_LIMIT} (arm the limit event)
     */
    public static native int ibv_modify_srq(ibv_srq srq, ibv_srq_attr srq_attr, int srq_attr_mask);

    /** {@code ibv_query_srq}: 0 or an errno value. */
    public static native int ibv_query_srq(ibv_srq srq, ibv_srq_attr srq_attr);

    /** {@code ibv_destroy_srq}: 0 or an errno value (EBUSY while QPs use it). */
    public static native int ibv_destroy_srq(ibv_srq srq);

    /**
     * {@code ibv_post_srq_recv}: 0 or an errno value.
     *
     * @param bad_recv_wr receives the first WR not posted: the object's address is overwritten
     */
    public static native int ibv_post_srq_recv(ibv_srq srq, ibv_recv_wr recv_wr, @ByPtrPtr ibv_recv_wr bad_recv_wr);
}
