package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_mr}: a registered memory region ({@code ibv_reg_mr}). Owned by libibverbs;
 * lkey/rkey change after {@code ibv_rereg_mr}.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_mr extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_mr}. */
    public ibv_mr(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    @MemberGetter
    public native ibv_pd pd();

    /** Start of the registered range (the iova may differ, see ibv_reg_mr_iova2). */
    @MemberGetter
    public native Pointer addr();

    @MemberGetter
    public native @Cast("size_t") long length();

    /** Kernel object handle. */
    @MemberGetter
    public native @Cast("uint32_t") int handle();

    /** Local key for SGEs of this process (unsigned 32 bits). */
    @MemberGetter
    public native @Cast("uint32_t") int lkey();

    /** Remote key for peers (unsigned 32 bits). */
    @MemberGetter
    public native @Cast("uint32_t") int rkey();
}
