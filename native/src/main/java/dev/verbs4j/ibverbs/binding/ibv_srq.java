package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_srq}: a shared receive queue ({@code ibv_create_srq}). Owned by libibverbs. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_srq extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_srq}. */
    public ibv_srq(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    /** The consumer context given at creation. */
    @MemberGetter
    public native Pointer srq_context();

    @MemberGetter
    public native ibv_pd pd();

    /** Kernel object handle. */
    @MemberGetter
    public native @Cast("uint32_t") int handle();
}
