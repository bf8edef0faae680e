package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_qp_attr}: input of {@code ibv_modify_qp} and output of {@code
 * ibv_query_qp}; the attr_mask ({@code IBV_QP_*} bits) names the fields used.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_qp_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_qp_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_qp_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_qp_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_qp_attr}. */
    public ibv_qp_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_attr position(long position) {
        return (ibv_qp_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_attr getPointer(long i) {
        return new ibv_qp_attr((Pointer) this).offsetAddress(i);
    }

    public native @Cast("ibv_qp_state") int qp_state();

    public native ibv_qp_attr qp_state(@Cast("ibv_qp_state") int setter);

    public native @Cast("ibv_qp_state") int cur_qp_state();

    public native ibv_qp_attr cur_qp_state(@Cast("ibv_qp_state") int setter);

    public native @Cast("ibv_mtu") int path_mtu();

    public native ibv_qp_attr path_mtu(@Cast("ibv_mtu") int setter);

    public native @Cast("ibv_mig_state") int path_mig_state();

    public native ibv_qp_attr path_mig_state(@Cast("ibv_mig_state") int setter);

    public native @Cast("uint32_t") int qkey();

    public native ibv_qp_attr qkey(@Cast("uint32_t") int setter);

    /** 24-bit expected PSN of the responder. */
    public native @Cast("uint32_t") int rq_psn();

    public native ibv_qp_attr rq_psn(@Cast("uint32_t") int setter);

    /** 24-bit first PSN of the requester. */
    public native @Cast("uint32_t") int sq_psn();

    public native ibv_qp_attr sq_psn(@Cast("uint32_t") int setter);

    public native @Cast("uint32_t") int dest_qp_num();

    public native ibv_qp_attr dest_qp_num(@Cast("uint32_t") int setter);

    /** {@code IBV_ACCESS_REMOTE_*} and FLUSH bits the responder allows. */
    public native @Cast("unsigned int") int qp_access_flags();

    public native ibv_qp_attr qp_access_flags(@Cast("unsigned int") int setter);

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_qp_cap cap();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_ah_attr ah_attr();

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_ah_attr alt_ah_attr();

    public native @Cast("uint16_t") int pkey_index();

    public native ibv_qp_attr pkey_index(@Cast("uint16_t") int setter);

    public native @Cast("uint16_t") int alt_pkey_index();

    public native ibv_qp_attr alt_pkey_index(@Cast("uint16_t") int setter);

    public native @Cast("uint8_t") int en_sqd_async_notify();

    public native ibv_qp_attr en_sqd_async_notify(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int sq_draining();

    public native ibv_qp_attr sq_draining(@Cast("uint8_t") int setter);

    /** Outstanding RDMA READ/atomic/FLUSH/ATOMIC WRITE as requester. */
    public native @Cast("uint8_t") int max_rd_atomic();

    public native ibv_qp_attr max_rd_atomic(@Cast("uint8_t") int setter);

    /** Responder resources for the same operations. */
    public native @Cast("uint8_t") int max_dest_rd_atomic();

    public native ibv_qp_attr max_dest_rd_atomic(@Cast("uint8_t") int setter);

    /** IBTA RNR NAK timer code (5 bits). */
    public native @Cast("uint8_t") int min_rnr_timer();

    public native ibv_qp_attr min_rnr_timer(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int port_num();

    public native ibv_qp_attr port_num(@Cast("uint8_t") int setter);

    /** Local ACK timeout: 4.096 us * 2^timeout, 0 = infinite. */
    public native @Cast("uint8_t") int timeout();

    public native ibv_qp_attr timeout(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int retry_cnt();

    public native ibv_qp_attr retry_cnt(@Cast("uint8_t") int setter);

    /** 7 = retry forever. */
    public native @Cast("uint8_t") int rnr_retry();

    public native ibv_qp_attr rnr_retry(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int alt_port_num();

    public native ibv_qp_attr alt_port_num(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int alt_timeout();

    public native ibv_qp_attr alt_timeout(@Cast("uint8_t") int setter);

    /** kbit/s. */
    public native @Cast("uint32_t") int rate_limit();

    public native ibv_qp_attr rate_limit(@Cast("uint32_t") int setter);
}
