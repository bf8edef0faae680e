package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.ByPtrPtr;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * Queue pairs, their receive queue, and address handles. Sending goes
 * through {@link PostSendVerbs} (the {@code ibv_wr_*} API), which needs a
 * QP created by {@link #ibv_create_qp_ex} with
 * {@code IBV_QP_INIT_ATTR_SEND_OPS_FLAGS}.
 *
 * <p>Return conventions are libibverbs' own. "errno in
 * {@link Errno#lastErrno()}" marks calls that report failure only through
 * errno; it is captured inside the call.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class QueuePairVerbs {
    static {
        Loader.load();
    }

    private QueuePairVerbs() {
    }

    /**
     * {@code ibv_create_qp_ex}: a QP in RESET, or null with errno in
     * {@link Errno#lastErrno()}. attr.cap is updated with the sizes
     * granted. A provider that cannot do an operation named in
     * send_ops_flags fails the creation, typically with EOPNOTSUPP.
     */
    @Name("verbs4j::keep_errno<ibv_create_qp_ex>")
    public static native ibv_qp ibv_create_qp_ex(ibv_context context, ibv_qp_init_attr_ex qp_init_attr_ex);

    /**
     * {@code ibv_qp_to_qp_ex}: the extended view (same address) of a QP
     * created by {@link #ibv_create_qp_ex}, or null for a QP without it
     * (no errno is set).
     */
    public static native ibv_qp_ex ibv_qp_to_qp_ex(ibv_qp qp);

    /**
     * {@code ibv_modify_qp}: 0 or an errno value.
     *
     * @param attr_mask {@code IBV_QP_*} bits naming the fields of attr to apply
     */
    public static native int ibv_modify_qp(ibv_qp qp, ibv_qp_attr attr, int attr_mask);

    /**
     * {@code ibv_query_qp_data_in_order}: with {@link IbverbsConstants#IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS},
     * the {@code IBV_QUERY_QP_DATA_IN_ORDER_*} capability bits; without it, 1 or 0.
     */
    public static native int ibv_query_qp_data_in_order(ibv_qp qp, @Cast("ibv_wr_opcode") int op,
            @Cast("uint32_t") int flags);

    /**
     * {@code ibv_query_qp}: 0 or an errno value; fills attr and init_attr.
     *
     * @param attr_mask {@code IBV_QP_*} bits of interest (providers may fill more)
     */
    public static native int ibv_query_qp(ibv_qp qp, ibv_qp_attr attr, int attr_mask, ibv_qp_init_attr init_attr);

    /** {@code ibv_destroy_qp}: 0 or an errno value. */
    public static native int ibv_destroy_qp(ibv_qp qp);

    /**
     * {@code ibv_post_recv}: 0 or an errno value.
     *
     * @param bad_wr receives the first WR not posted: the object's address is overwritten
     */
    public static native int ibv_post_recv(ibv_qp qp, ibv_recv_wr wr, @ByPtrPtr ibv_recv_wr bad_wr);

    /**
     * {@code ibv_post_send}: 0 or an errno value. The posting path of a queue pair created
     * without {@code IBV_QP_INIT_ATTR_SEND_OPS_FLAGS}, on providers that lack the extended one.
     *
     * @param bad_wr receives the first WR not posted: the object's address is overwritten
     */
    public static native int ibv_post_send(ibv_qp qp, ibv_send_wr wr, @ByPtrPtr ibv_send_wr bad_wr);

    /** {@code ibv_create_ah}: an address handle, or null with errno in {@link Errno#lastErrno()}. */
    @Name("verbs4j::keep_errno<ibv_create_ah>")
    public static native ibv_ah ibv_create_ah(ibv_pd pd, ibv_ah_attr attr);

    /** {@code ibv_destroy_ah}: 0 or an errno value. */
    public static native int ibv_destroy_ah(ibv_ah ah);
}
