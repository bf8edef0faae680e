package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_mw}: a memory window ({@code ibv_alloc_mw}). Owned by libibverbs; the rkey
 * is the one of the latest bind.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_mw extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_mw}. */
    public ibv_mw(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    @MemberGetter
    public native ibv_pd pd();

    /**
     * The window's rkey as the provider library knows it: a type 1 bind ({@code ibv_bind_mw})
     * updates it; after a type 2 bind ({@code ibv_wr_bind_mw}) the application sets it,
     * because the library names the window by this key in the next bind.
     */
    public native @Cast("uint32_t") int rkey();

    public native ibv_mw rkey(@Cast("uint32_t") int setter);

    /** Kernel object handle. */
    @MemberGetter
    public native @Cast("uint32_t") int handle();

    /** {@code IBV_MW_TYPE_1} or {@code IBV_MW_TYPE_2}. */
    @MemberGetter
    public native @Cast("ibv_mw_type") int type();
}
