package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_port_attr}: filled by {@code ibv_query_port}. rdma-core 44 does not know
 * active_speed_ex and leaves it zero.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_port_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_port_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_port_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_port_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_port_attr}. */
    public ibv_port_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_port_attr position(long position) {
        return (ibv_port_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_port_attr getPointer(long i) {
        return new ibv_port_attr((Pointer) this).offsetAddress(i);
    }

    /** An {@code IBV_PORT_*} state. */
    @MemberGetter
    public native @Cast("ibv_port_state") int state();

    /** An {@code IBV_MTU_*} value. */
    @MemberGetter
    public native @Cast("ibv_mtu") int max_mtu();

    /** An {@code IBV_MTU_*} value; for RoCE derived from the netdev MTU. */
    @MemberGetter
    public native @Cast("ibv_mtu") int active_mtu();

    @MemberGetter
    public native int gid_tbl_len();

    /** {@code IBV_PORT_*} capability bits. */
    @MemberGetter
    public native @Cast("uint32_t") int port_cap_flags();

    @MemberGetter
    public native @Cast("uint32_t") int max_msg_sz();

    @MemberGetter
    public native @Cast("uint32_t") int bad_pkey_cntr();

    @MemberGetter
    public native @Cast("uint32_t") int qkey_viol_cntr();

    @MemberGetter
    public native @Cast("uint16_t") int pkey_tbl_len();

    @MemberGetter
    public native @Cast("uint16_t") int lid();

    @MemberGetter
    public native @Cast("uint16_t") int sm_lid();

    @MemberGetter
    public native @Cast("uint8_t") int lmc();

    @MemberGetter
    public native @Cast("uint8_t") int max_vl_num();

    @MemberGetter
    public native @Cast("uint8_t") int sm_sl();

    @MemberGetter
    public native @Cast("uint8_t") int subnet_timeout();

    @MemberGetter
    public native @Cast("uint8_t") int init_type_reply();

    @MemberGetter
    public native @Cast("uint8_t") int active_width();

    @MemberGetter
    public native @Cast("uint8_t") int active_speed();

    @MemberGetter
    public native @Cast("uint8_t") int phys_state();

    /** {@code IBV_LINK_LAYER_INFINIBAND} or {@code IBV_LINK_LAYER_ETHERNET} (RoCE). */
    @MemberGetter
    public native @Cast("uint8_t") int link_layer();

    /** {@code IBV_QPF_GRH_REQUIRED} when sends must carry a GRH. */
    @MemberGetter
    public native @Cast("uint8_t") int flags();

    @MemberGetter
    public native @Cast("uint16_t") int port_cap_flags2();

    @MemberGetter
    public native @Cast("uint32_t") int active_speed_ex();
}
