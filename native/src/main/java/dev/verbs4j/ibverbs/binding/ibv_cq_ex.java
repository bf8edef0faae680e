package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_cq_ex}: an extended completion queue ({@code ibv_create_cq_ex}). While a
 * poll is open ({@code ibv_start_poll} returned 0), status and wr_id describe the current
 * completion; the other fields are read through the {@code ibv_wc_read_*} calls. Owned by
 * libibverbs.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_cq_ex extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_cq_ex}. */
    public ibv_cq_ex(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    @MemberGetter
    public native ibv_comp_channel channel();

    /** The consumer context given at creation. */
    @MemberGetter
    public native Pointer cq_context();

    /** Kernel object handle. */
    @MemberGetter
    public native @Cast("uint32_t") int handle();

    /** Actual capacity. */
    @MemberGetter
    public native int cqe();

    @MemberGetter
    public native @Cast("uint32_t") int comp_mask();

    /** Status of the current completion, an {@code IBV_WC_*} status. */
    @MemberGetter
    public native @Cast("ibv_wc_status") int status();

    /** wr_id of the current completion. */
    @MemberGetter
    public native @Cast("uint64_t") long wr_id();
}
