package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_cq}: a completion queue ({@code ibv_create_cq}, or {@code ibv_cq_ex_to_cq}
 * of an extended one). Owned by libibverbs.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_cq extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_cq}. */
    public ibv_cq(Pointer pointer) {
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

    /** Actual capacity (may exceed the requested one). */
    @MemberGetter
    public native int cqe();
}
