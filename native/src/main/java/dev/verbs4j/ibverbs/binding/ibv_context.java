package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_context}: an opened device ({@code ibv_open_device}). Owned by libibverbs. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_context extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_context}. */
    public ibv_context(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_device device();

    /** The uverbs command descriptor. */
    @MemberGetter
    public native int cmd_fd();

    /** Readable when an async event is pending ({@code ibv_get_async_event}). */
    @MemberGetter
    public native int async_fd();

    /** Completion vectors available to {@code ibv_create_cq}. */
    @MemberGetter
    public native int num_comp_vectors();
}
