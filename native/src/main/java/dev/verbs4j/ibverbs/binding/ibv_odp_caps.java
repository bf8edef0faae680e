package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_odp_caps}: on-demand paging support, part of {@code ibv_device_attr_ex}.
 * The per-transport words hold {@code IBV_ODP_SUPPORT_*} transport bits, including FLUSH
 * (1&lt;&lt;6) and ATOMIC_WRITE (1&lt;&lt;7), which rdma-core names only from release 58.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_odp_caps extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_odp_caps}, freed by {@link #close()} or once unreachable. */
    public ibv_odp_caps() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_odp_caps(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_odp_caps}. */
    public ibv_odp_caps(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_odp_caps position(long position) {
        return (ibv_odp_caps) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_odp_caps getPointer(long i) {
        return new ibv_odp_caps((Pointer) this).offsetAddress(i);
    }

    /** {@code IBV_ODP_SUPPORT} / {@code IBV_ODP_SUPPORT_IMPLICIT} bits. */
    @MemberGetter
    public native @Cast("uint64_t") long general_caps();

    /** ODP operations supported on RC QPs. */
    @MemberGetter
    public native @Name("per_transport_caps.rc_odp_caps") @Cast("uint32_t") int rc_odp_caps();

    /** ODP operations supported on UC QPs. */
    @MemberGetter
    public native @Name("per_transport_caps.uc_odp_caps") @Cast("uint32_t") int uc_odp_caps();

    /** ODP operations supported on UD QPs. */
    @MemberGetter
    public native @Name("per_transport_caps.ud_odp_caps") @Cast("uint32_t") int ud_odp_caps();
}
