package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_qp_init_attr_ex}: input of {@code ibv_create_qp_ex}. For the {@code
 * ibv_wr_*} post path set comp_mask to {@code IBV_QP_INIT_ATTR_PD |
 * IBV_QP_INIT_ATTR_SEND_OPS_FLAGS} and send_ops_flags to the {@code IBV_QP_EX_WITH_*}
 * operations used; a provider rejects operations it cannot do. The RSS hash configuration
 * (rx_hash_conf) is not mapped.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_qp_init_attr_ex extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_qp_init_attr_ex}, freed by {@link #close()} or once unreachable. */
    public ibv_qp_init_attr_ex() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_qp_init_attr_ex(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_qp_init_attr_ex}. */
    public ibv_qp_init_attr_ex(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_init_attr_ex position(long position) {
        return (ibv_qp_init_attr_ex) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_init_attr_ex getPointer(long i) {
        return new ibv_qp_init_attr_ex((Pointer) this).offsetAddress(i);
    }

    public native Pointer qp_context();

    public native ibv_qp_init_attr_ex qp_context(Pointer setter);

    public native ibv_cq send_cq();

    public native ibv_qp_init_attr_ex send_cq(ibv_cq setter);

    public native ibv_cq recv_cq();

    public native ibv_qp_init_attr_ex recv_cq(ibv_cq setter);

    public native ibv_srq srq();

    public native ibv_qp_init_attr_ex srq(ibv_srq setter);

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_qp_cap cap();

    /** An {@code IBV_QPT_*} value. */
    public native @Cast("ibv_qp_type") int qp_type();

    public native ibv_qp_init_attr_ex qp_type(@Cast("ibv_qp_type") int setter);

    /** Non-zero: every send WR completes with a CQE, whatever its flags. */
    public native int sq_sig_all();

    public native ibv_qp_init_attr_ex sq_sig_all(int setter);

    /** {@code IBV_QP_INIT_ATTR_*} bits naming the valid fields below. */
    public native @Cast("uint32_t") int comp_mask();

    public native ibv_qp_init_attr_ex comp_mask(@Cast("uint32_t") int setter);

    public native ibv_pd pd();

    public native ibv_qp_init_attr_ex pd(ibv_pd setter);

    public native @Cast("ibv_xrcd*") Pointer xrcd();

    public native ibv_qp_init_attr_ex xrcd(@Cast("ibv_xrcd*") Pointer setter);

    /** {@code IBV_QP_CREATE_*} bits. */
    public native @Cast("uint32_t") int create_flags();

    public native ibv_qp_init_attr_ex create_flags(@Cast("uint32_t") int setter);

    public native @Cast("uint16_t") int max_tso_header();

    public native ibv_qp_init_attr_ex max_tso_header(@Cast("uint16_t") int setter);

    public native @Cast("ibv_rwq_ind_table*") Pointer rwq_ind_tbl();

    public native ibv_qp_init_attr_ex rwq_ind_tbl(@Cast("ibv_rwq_ind_table*") Pointer setter);

    public native @Cast("uint32_t") int source_qpn();

    public native ibv_qp_init_attr_ex source_qpn(@Cast("uint32_t") int setter);

    /** {@code IBV_QP_EX_WITH_*} bits. */
    public native @Cast("uint64_t") long send_ops_flags();

    public native ibv_qp_init_attr_ex send_ops_flags(@Cast("uint64_t") long setter);
}
