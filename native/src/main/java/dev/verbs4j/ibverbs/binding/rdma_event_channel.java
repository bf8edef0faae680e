package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct rdma_event_channel}: where connection-manager events arrive. Owned by librdmacm. */
@Properties(inherit = RdmacmLibrary.class)
public final class rdma_event_channel extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code rdma_event_channel}. */
    public rdma_event_channel(Pointer pointer) {
        super(pointer);
    }

    /** The descriptor of {@code /dev/infiniband/rdma_cm}, readable when an event is pending. */
    @MemberGetter
    public native int fd();
}
