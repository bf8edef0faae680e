package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_ah}: an address handle for UD sends ({@code ibv_create_ah}). Owned by
 * libibverbs.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_ah extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_ah}. */
    public ibv_ah(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    @MemberGetter
    public native ibv_pd pd();

    /** Kernel object handle. */
    @MemberGetter
    public native @Cast("uint32_t") int handle();
}
