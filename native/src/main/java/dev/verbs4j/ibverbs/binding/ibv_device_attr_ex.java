package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_device_attr_ex}: everything {@code ibv_query_device_ex} reports. libibverbs
 * copies the kernel's 64-bit capability word raw into device_cap_flags_ex, so bits verbs.h does
 * not name (FLUSH_GLOBAL 38, FLUSH_PERSISTENT 39, ATOMIC_WRITE 40, see {@link
 * IbverbsConstants}) are read from it directly. An older libibverbs fills a prefix of the
 * struct and leaves the rest zero.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_device_attr_ex extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_device_attr_ex}, freed by {@link #close()} or once unreachable. */
    public ibv_device_attr_ex() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_device_attr_ex(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_device_attr_ex}. */
    public ibv_device_attr_ex(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_device_attr_ex position(long position) {
        return (ibv_device_attr_ex) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_device_attr_ex getPointer(long i) {
        return new ibv_device_attr_ex((Pointer) this).offsetAddress(i);
    }

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_device_attr orig_attr();

    @MemberGetter
    public native @Cast("uint32_t") int comp_mask();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_odp_caps odp_caps();

    @MemberGetter
    public native @Cast("uint64_t") long completion_timestamp_mask();

    /** kHz. */
    @MemberGetter
    public native @Cast("uint64_t") long hca_core_clock();

    /** All 64 device capability bits. */
    @MemberGetter
    public native @Cast("uint64_t") long device_cap_flags_ex();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_tso_caps tso_caps();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_rss_caps rss_caps();

    @MemberGetter
    public native @Cast("uint32_t") int max_wq_type_rq();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_packet_pacing_caps packet_pacing_caps();

    /** {@code IBV_RAW_PACKET_CAP_*} bits. */
    @MemberGetter
    public native @Cast("uint32_t") int raw_packet_caps();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_tm_caps tm_caps();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_cq_moderation_caps cq_mod_caps();

    /** Device memory bytes. */
    @MemberGetter
    public native @Cast("uint64_t") long max_dm_size();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_pci_atomic_caps pci_atomic_caps();

    /** ODP operations supported on XRC QPs. */
    @MemberGetter
    public native @Cast("uint32_t") int xrc_odp_caps();

    /** Port count when it exceeds 255. */
    @MemberGetter
    public native @Cast("uint32_t") int phys_port_cnt_ex();
}
