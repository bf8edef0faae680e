package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_qp_ex}: the extended view of a queue pair ({@code ibv_qp_to_qp_ex}), target
 * of the {@link PostSendVerbs} calls. Set wr_id and wr_flags before each operation call;
 * libibverbs owns the struct.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_qp_ex extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_qp_ex}. */
    public ibv_qp_ex(Pointer pointer) {
        super(pointer);
    }

    /** The plain QP. A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_qp qp_base();

    public native @Cast("uint64_t") long comp_mask();

    public native ibv_qp_ex comp_mask(@Cast("uint64_t") long setter);

    /** wr_id of the next work request. */
    public native @Cast("uint64_t") long wr_id();

    public native ibv_qp_ex wr_id(@Cast("uint64_t") long setter);

    /** {@code IBV_SEND_*} bits of the next work request. */
    public native @Cast("unsigned int") int wr_flags();

    public native ibv_qp_ex wr_flags(@Cast("unsigned int") int setter);
}
