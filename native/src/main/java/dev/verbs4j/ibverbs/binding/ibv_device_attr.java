package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_device_attr}: the classic device limits, filled by {@code
 * ibv_query_device_ex} as {@code ibv_device_attr_ex.orig_attr}.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_device_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_device_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_device_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_device_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_device_attr}. */
    public ibv_device_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_device_attr position(long position) {
        return (ibv_device_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_device_attr getPointer(long i) {
        return new ibv_device_attr((Pointer) this).offsetAddress(i);
    }

    /** Firmware version text. */
    @MemberGetter
    public native @Cast("const char*") String fw_ver();

    /** Node GUID in network byte order. */
    @MemberGetter
    public native @Cast("uint64_t") long node_guid();

    /** System image GUID in network byte order. */
    @MemberGetter
    public native @Cast("uint64_t") long sys_image_guid();

    @MemberGetter
    public native @Cast("uint64_t") long max_mr_size();

    @MemberGetter
    public native @Cast("uint64_t") long page_size_cap();

    @MemberGetter
    public native @Cast("uint32_t") int vendor_id();

    @MemberGetter
    public native @Cast("uint32_t") int vendor_part_id();

    @MemberGetter
    public native @Cast("uint32_t") int hw_ver();

    @MemberGetter
    public native int max_qp();

    @MemberGetter
    public native int max_qp_wr();

    /**
     * The low 32 {@code IBV_DEVICE_*} bits; all 64 are in {@code
     * ibv_device_attr_ex.device_cap_flags_ex}.
     */
    @MemberGetter
    public native @Cast("unsigned int") int device_cap_flags();

    @MemberGetter
    public native int max_sge();

    @MemberGetter
    public native int max_sge_rd();

    @MemberGetter
    public native int max_cq();

    @MemberGetter
    public native int max_cqe();

    @MemberGetter
    public native int max_mr();

    @MemberGetter
    public native int max_pd();

    /** Outstanding RDMA READ/atomic (and FLUSH, ATOMIC WRITE) a QP may have as responder. */
    @MemberGetter
    public native int max_qp_rd_atom();

    @MemberGetter
    public native int max_ee_rd_atom();

    @MemberGetter
    public native int max_res_rd_atom();

    /** Outstanding RDMA READ/atomic a QP may initiate. */
    @MemberGetter
    public native int max_qp_init_rd_atom();

    @MemberGetter
    public native int max_ee_init_rd_atom();

    /** An {@code IBV_ATOMIC_*} value. */
    @MemberGetter
    public native @Cast("ibv_atomic_cap") int atomic_cap();

    @MemberGetter
    public native int max_ee();

    @MemberGetter
    public native int max_rdd();

    @MemberGetter
    public native int max_mw();

    @MemberGetter
    public native int max_raw_ipv6_qp();

    @MemberGetter
    public native int max_raw_ethy_qp();

    @MemberGetter
    public native int max_mcast_grp();

    @MemberGetter
    public native int max_mcast_qp_attach();

    @MemberGetter
    public native int max_total_mcast_qp_attach();

    @MemberGetter
    public native int max_ah();

    @MemberGetter
    public native int max_fmr();

    @MemberGetter
    public native int max_map_per_fmr();

    @MemberGetter
    public native int max_srq();

    @MemberGetter
    public native int max_srq_wr();

    @MemberGetter
    public native int max_srq_sge();

    @MemberGetter
    public native @Cast("uint16_t") int max_pkeys();

    @MemberGetter
    public native @Cast("uint8_t") int local_ca_ack_delay();

    @MemberGetter
    public native @Cast("uint8_t") int phys_port_cnt();
}
