package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * The extended send API ({@code ibv_wr_*}, rdma-core &ge; 24; FLUSH &ge; 45).
 *
 * <p>A batch is {@link #ibv_wr_start}, then per work request: set
 * {@code qp.wr_id(..)} and {@code qp.wr_flags(..)} ({@code IBV_SEND_*}
 * bits) on the {@link ibv_qp_ex}, call one operation ({@code ibv_wr_send},
 * {@code ibv_wr_rdma_write}, ...), then its data ({@code ibv_wr_set_sge},
 * {@code ibv_wr_set_sge_list}, {@code ibv_wr_set_inline_data(_list)}) and,
 * on UD, {@code ibv_wr_set_ud_addr}; finally {@link #ibv_wr_complete}
 * posts the batch (or {@link #ibv_wr_abort} drops it). Each operation must
 * have been enabled in {@code ibv_qp_init_attr_ex.send_ops_flags}. Errors in
 * single work requests surface only from {@code ibv_wr_complete}.
 *
 * <p>Calls dispatch through function pointers of the provider; none
 * allocates, so the whole path is allocation-free from Java.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class PostSendVerbs {
    static {
        Loader.load();
    }

    private PostSendVerbs() {
    }

    /** {@code ibv_wr_start}: opens a batch; the QP's send queue is locked by the provider until complete/abort. */
    public static native void ibv_wr_start(ibv_qp_ex qp);

    /** {@code ibv_wr_complete}: posts the batch; 0 or an errno value (then nothing of the batch was posted). */
    public static native int ibv_wr_complete(ibv_qp_ex qp);

    /** {@code ibv_wr_abort}: discards the batch. */
    public static native void ibv_wr_abort(ibv_qp_ex qp);

    /** {@code ibv_wr_send}: SEND; data from the following set_sge/set_inline_data. */
    public static native void ibv_wr_send(ibv_qp_ex qp);

    /** {@code ibv_wr_send_imm}: SEND with immediate data (network byte order). */
    public static native void ibv_wr_send_imm(ibv_qp_ex qp, @Cast("__be32") int imm_data);

    /** {@code ibv_wr_send_inv}: SEND that invalidates {@code invalidate_rkey} at the responder. */
    public static native void ibv_wr_send_inv(ibv_qp_ex qp, @Cast("uint32_t") int invalidate_rkey);

    /** {@code ibv_wr_rdma_write}: RDMA WRITE to remote_addr under rkey. */
    public static native void ibv_wr_rdma_write(ibv_qp_ex qp, @Cast("uint32_t") int rkey,
            @Cast("uint64_t") long remote_addr);

    /** {@code ibv_wr_rdma_write_imm}: RDMA WRITE that also consumes a receive, with immediate data (network order). */
    public static native void ibv_wr_rdma_write_imm(ibv_qp_ex qp, @Cast("uint32_t") int rkey,
            @Cast("uint64_t") long remote_addr, @Cast("__be32") int imm_data);

    /** {@code ibv_wr_rdma_read}: RDMA READ from remote_addr into the following SGEs. */
    public static native void ibv_wr_rdma_read(ibv_qp_ex qp, @Cast("uint32_t") int rkey,
            @Cast("uint64_t") long remote_addr);

    /** {@code ibv_wr_atomic_cmp_swp}: 8-byte compare-and-swap; the old value lands in the following SGE. */
    public static native void ibv_wr_atomic_cmp_swp(ibv_qp_ex qp, @Cast("uint32_t") int rkey,
            @Cast("uint64_t") long remote_addr, @Cast("uint64_t") long compare, @Cast("uint64_t") long swap);

    /** {@code ibv_wr_atomic_fetch_add}: 8-byte fetch-and-add; the old value lands in the following SGE. */
    public static native void ibv_wr_atomic_fetch_add(ibv_qp_ex qp, @Cast("uint32_t") int rkey,
            @Cast("uint64_t") long remote_addr, @Cast("uint64_t") long add);

    /**
     * {@code ibv_wr_atomic_write} (rdma-core &ge; 44): writes the 8 bytes at
     * {@code atomic_wr} to remote_addr as one atomic store; no SGE follows.
     */
    public static native void ibv_wr_atomic_write(ibv_qp_ex qp, @Cast("uint32_t") int rkey,
            @Cast("uint64_t") long remote_addr, @Cast("const void*") Pointer atomic_wr);

    /**
     * {@code ibv_wr_flush} (rdma-core &ge; 45): RDMA FLUSH of
     * [remote_addr, remote_addr + len) or of the whole MR; no SGE follows.
     *
     * <p>Only for QPs created with {@code IBV_QP_EX_WITH_FLUSH}, and only
     * when {@link IbverbsLibrary#runtimeKnowsFlush()}: with an older
     * libibverbs at run time {@code struct ibv_qp_ex} has no
     * {@code wr_flush} member and this call would jump through memory the
     * provider never set.
     *
     * @param type {@code IBV_FLUSH_GLOBAL} or {@code IBV_FLUSH_PERSISTENT} (placement type)
     * @param level {@code IBV_FLUSH_RANGE} or {@code IBV_FLUSH_MR} (selectivity level)
     */
    public static native void ibv_wr_flush(ibv_qp_ex qp, @Cast("uint32_t") int rkey,
            @Cast("uint64_t") long remote_addr, @Cast("size_t") long len, @Cast("uint8_t") int type,
            @Cast("uint8_t") int level);

    /** {@code ibv_wr_local_inv}: invalidates a local key (type-2 window or MR). */
    public static native void ibv_wr_local_inv(ibv_qp_ex qp, @Cast("uint32_t") int invalidate_rkey);

    /**
     * {@code ibv_wr_bind_mw}: binds a type-2 window to {@code rkey} (whose
     * low 8 bits the consumer chooses, see {@code ibv_inc_rkey}).
     */
    public static native void ibv_wr_bind_mw(ibv_qp_ex qp, ibv_mw mw, @Cast("uint32_t") int rkey,
            @Cast("const ibv_mw_bind_info*") ibv_mw_bind_info bind_info);

    /** {@code ibv_wr_set_sge}: the work request's one data segment. */
    public static native void ibv_wr_set_sge(ibv_qp_ex qp, @Cast("uint32_t") int lkey,
            @Cast("uint64_t") long addr, @Cast("uint32_t") int length);

    /** {@code ibv_wr_set_sge_list}: the work request's data segments (copied by the call). */
    public static native void ibv_wr_set_sge_list(ibv_qp_ex qp, @Cast("size_t") long num_sge,
            @Cast("const ibv_sge*") ibv_sge sg_list);

    /** {@code ibv_wr_set_inline_data}: data copied into the WQE (IBV_SEND_INLINE semantics; no lkey needed). */
    public static native void ibv_wr_set_inline_data(ibv_qp_ex qp, Pointer addr, @Cast("size_t") long length);

    /**
     * {@link #ibv_wr_set_inline_data} with the data's address as a plain number, so the post
     * path needs no {@link Pointer} object per request.
     */
    public static native void ibv_wr_set_inline_data(ibv_qp_ex qp, @Cast("void*") long addr, @Cast("size_t") long length);

    /** {@code ibv_wr_set_inline_data_list}: several inline buffers. */
    public static native void ibv_wr_set_inline_data_list(ibv_qp_ex qp, @Cast("size_t") long num_buf,
            @Cast("const ibv_data_buf*") ibv_data_buf buf_list);

    /** {@code ibv_wr_set_ud_addr}: destination of a UD send. */
    public static native void ibv_wr_set_ud_addr(ibv_qp_ex qp, ibv_ah ah, @Cast("uint32_t") int remote_qpn,
            @Cast("uint32_t") int remote_qkey);
}
