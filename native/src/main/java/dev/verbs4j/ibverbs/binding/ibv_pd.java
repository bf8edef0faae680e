package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_pd}: a protection domain ({@code ibv_alloc_pd}). Owned by libibverbs. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_pd extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_pd}. */
    public ibv_pd(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    /** Kernel object handle. */
    @MemberGetter
    public native @Cast("uint32_t") int handle();
}
