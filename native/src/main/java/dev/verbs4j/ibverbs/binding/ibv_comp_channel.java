package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_comp_channel}: a completion event channel ({@code
 * ibv_create_comp_channel}). Owned by libibverbs.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_comp_channel extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_comp_channel}. */
    public ibv_comp_channel(Pointer pointer) {
        super(pointer);
    }

    @MemberGetter
    public native ibv_context context();

    /** Readable when a completion event is pending; see {@link FileDescriptors}. */
    @MemberGetter
    public native int fd();

    /** Number of CQs using the channel; destroying it while non-zero fails with EBUSY. */
    @MemberGetter
    public native int refcnt();
}
