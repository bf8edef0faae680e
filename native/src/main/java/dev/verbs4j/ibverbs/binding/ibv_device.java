package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_device}: one RDMA device as listed by {@code ibv_get_device_list}. Owned by
 * libibverbs; valid until the list is freed (and while a context opened on it lives).
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_device extends Pointer {
    static {
        Loader.load();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_device}. */
    public ibv_device(Pointer pointer) {
        super(pointer);
    }

    /** An {@code IBV_NODE_*} value. */
    @MemberGetter
    public native @Cast("ibv_node_type") int node_type();

    /** An {@code IBV_TRANSPORT_*} value. */
    @MemberGetter
    public native @Cast("ibv_transport_type") int transport_type();

    /** Kernel device name, e.g. {@code rxe0}. */
    @MemberGetter
    public native @Cast("const char*") String name();

    /** uverbs device name, e.g. {@code uverbs0}. */
    @MemberGetter
    public native @Cast("const char*") String dev_name();

    /** sysfs path of the infiniband_verbs class device. */
    @MemberGetter
    public native @Cast("const char*") String dev_path();

    /** sysfs path of the infiniband class device. */
    @MemberGetter
    public native @Cast("const char*") String ibdev_path();
}
