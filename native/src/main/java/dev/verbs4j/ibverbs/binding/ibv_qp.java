package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_qp}: a queue pair ({@code ibv_create_qp_ex}). Owned by libibverbs. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_qp extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_qp}. */
    public ibv_qp(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    /** The consumer context given at creation. */
    @MemberGetter
    public native Pointer qp_context();

    @MemberGetter
    public native ibv_pd pd();

    @MemberGetter
    public native ibv_cq send_cq();

    @MemberGetter
    public native ibv_cq recv_cq();

    /** Null unless the QP receives through a shared receive queue. */
    @MemberGetter
    public native ibv_srq srq();

    /** Kernel object handle. */
    @MemberGetter
    public native @Cast("uint32_t") int handle();

    /** The QP number (24 bits) peers address. */
    @MemberGetter
    public native @Cast("uint32_t") int qp_num();

    /** Last state libibverbs saw ({@code ibv_modify_qp}); {@code ibv_query_qp} asks the device. */
    @MemberGetter
    public native @Cast("ibv_qp_state") int state();

    /** An {@code IBV_QPT_*} value. */
    @MemberGetter
    public native @Cast("ibv_qp_type") int qp_type();
}
