package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * The extended CQ poll API: {@code ibv_start_poll}, then the
 * {@code ibv_wc_read_*} accessors for the current completion (status and
 * wr_id are fields of {@link ibv_cq_ex}), {@code ibv_next_poll} for the
 * next one, and {@code ibv_end_poll} once start_poll returned 0. Only the
 * fields requested in {@code ibv_cq_init_attr_ex.wc_flags} may be read.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class ExtendedCompletionVerbs {
    static {
        Loader.load();
    }

    private ExtendedCompletionVerbs() {
    }

    /** {@code ibv_start_poll}: 0 with a current completion, ENOENT when empty, or another errno value. */
    public static native int ibv_start_poll(ibv_cq_ex cq, ibv_poll_cq_attr attr);

    /** {@code ibv_next_poll}: 0 with the next completion current, ENOENT when empty, or another errno value. */
    public static native int ibv_next_poll(ibv_cq_ex cq);

    /** {@code ibv_end_poll}: ends the poll started by a successful {@link #ibv_start_poll}. */
    public static native void ibv_end_poll(ibv_cq_ex cq);

    /** {@code ibv_wc_read_opcode}: an {@code IBV_WC_*} opcode. */
    public static native int ibv_wc_read_opcode(ibv_cq_ex cq);

    /** {@code ibv_wc_read_vendor_err}. */
    public static native @Cast("uint32_t") int ibv_wc_read_vendor_err(ibv_cq_ex cq);

    /** {@code ibv_wc_read_byte_len}. */
    public static native @Cast("uint32_t") int ibv_wc_read_byte_len(ibv_cq_ex cq);

    /** {@code ibv_wc_read_imm_data}: network byte order. */
    public static native @Cast("uint32_t") int ibv_wc_read_imm_data(ibv_cq_ex cq);

    /** {@code ibv_wc_read_invalidated_rkey}. */
    public static native @Cast("uint32_t") int ibv_wc_read_invalidated_rkey(ibv_cq_ex cq);

    /** {@code ibv_wc_read_qp_num}. */
    public static native @Cast("uint32_t") int ibv_wc_read_qp_num(ibv_cq_ex cq);

    /** {@code ibv_wc_read_src_qp}. */
    public static native @Cast("uint32_t") int ibv_wc_read_src_qp(ibv_cq_ex cq);

    /** {@code ibv_wc_read_wc_flags}: {@code IBV_WC_*} flag bits. */
    public static native @Cast("unsigned int") int ibv_wc_read_wc_flags(ibv_cq_ex cq);

    /** {@code ibv_wc_read_slid}. */
    public static native @Cast("uint32_t") int ibv_wc_read_slid(ibv_cq_ex cq);

    /** {@code ibv_wc_read_sl}. */
    public static native @Cast("uint8_t") int ibv_wc_read_sl(ibv_cq_ex cq);

    /** {@code ibv_wc_read_dlid_path_bits}. */
    public static native @Cast("uint8_t") int ibv_wc_read_dlid_path_bits(ibv_cq_ex cq);

    /** {@code ibv_wc_read_completion_ts}: device clock ticks. */
    public static native @Cast("uint64_t") long ibv_wc_read_completion_ts(ibv_cq_ex cq);

    /** {@code ibv_wc_read_completion_wallclock_ns}. */
    public static native @Cast("uint64_t") long ibv_wc_read_completion_wallclock_ns(ibv_cq_ex cq);
}
