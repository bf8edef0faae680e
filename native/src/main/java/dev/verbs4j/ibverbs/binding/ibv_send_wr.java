package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.MemberSetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_send_wr}: a send work request for {@code ibv_post_send}, the posting
 * path of providers without the extended {@code ibv_wr_*} API (siw's, for one). The
 * operation's operands sit in unions: {@code wr.rdma}, {@code wr.atomic} or {@code wr.ud};
 * {@code imm_data} or {@code invalidate_rkey}; {@code bind_mw}.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_send_wr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_send_wr}, freed by {@link #close()} or once unreachable. */
    public ibv_send_wr() {
        super((Pointer) null);
        allocate();
    }

    /** Views the native memory at {@code pointer} as {@code ibv_send_wr}. */
    public ibv_send_wr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_send_wr position(long position) {
        return (ibv_send_wr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_send_wr getPointer(long i) {
        return new ibv_send_wr((Pointer) this).offsetAddress(i);
    }

    public native @Cast("uint64_t") long wr_id();

    public native ibv_send_wr wr_id(@Cast("uint64_t") long setter);

    public native ibv_send_wr next();

    public native ibv_send_wr next(ibv_send_wr setter);

    public native ibv_sge sg_list();

    public native ibv_send_wr sg_list(ibv_sge setter);

    public native int num_sge();

    public native ibv_send_wr num_sge(int setter);

    /** {@code IBV_WR_*}. */
    public native @Cast("ibv_wr_opcode") int opcode();

    public native ibv_send_wr opcode(@Cast("ibv_wr_opcode") int setter);

    /** {@code IBV_SEND_*} bits. */
    public native @Cast("unsigned int") int send_flags();

    public native ibv_send_wr send_flags(@Cast("unsigned int") int setter);

    /** Immediate data, in network order (a union with invalidate_rkey). */
    public native @Cast("__be32") int imm_data();

    public native ibv_send_wr imm_data(@Cast("__be32") int setter);

    /** the rkey a SEND_WITH_INV or LOCAL_INV invalidates. */
    public native @Cast("uint32_t") int invalidate_rkey();

    public native ibv_send_wr invalidate_rkey(@Cast("uint32_t") int setter);

    /** RDMA WRITE and READ: the remote address. */
    @MemberGetter
    public native @Name("wr.rdma.remote_addr") @Cast("uint64_t") long wr_rdma_remote_addr();

    @MemberSetter
    public native @Name("wr.rdma.remote_addr") ibv_send_wr wr_rdma_remote_addr(@Cast("uint64_t") long setter);

    @MemberGetter
    public native @Name("wr.rdma.rkey") @Cast("uint32_t") int wr_rdma_rkey();

    @MemberSetter
    public native @Name("wr.rdma.rkey") ibv_send_wr wr_rdma_rkey(@Cast("uint32_t") int setter);

    /** Atomics: the remote address and operands. */
    @MemberGetter
    public native @Name("wr.atomic.remote_addr") @Cast("uint64_t") long wr_atomic_remote_addr();

    @MemberSetter
    public native @Name("wr.atomic.remote_addr") ibv_send_wr wr_atomic_remote_addr(@Cast("uint64_t") long setter);

    @MemberGetter
    public native @Name("wr.atomic.compare_add") @Cast("uint64_t") long wr_atomic_compare_add();

    @MemberSetter
    public native @Name("wr.atomic.compare_add") ibv_send_wr wr_atomic_compare_add(@Cast("uint64_t") long setter);

    @MemberGetter
    public native @Name("wr.atomic.swap") @Cast("uint64_t") long wr_atomic_swap();

    @MemberSetter
    public native @Name("wr.atomic.swap") ibv_send_wr wr_atomic_swap(@Cast("uint64_t") long setter);

    @MemberGetter
    public native @Name("wr.atomic.rkey") @Cast("uint32_t") int wr_atomic_rkey();

    @MemberSetter
    public native @Name("wr.atomic.rkey") ibv_send_wr wr_atomic_rkey(@Cast("uint32_t") int setter);

    /** UD: the destination. */
    @MemberGetter
    public native @Name("wr.ud.ah") ibv_ah wr_ud_ah();

    @MemberSetter
    public native @Name("wr.ud.ah") ibv_send_wr wr_ud_ah(ibv_ah setter);

    @MemberGetter
    public native @Name("wr.ud.remote_qpn") @Cast("uint32_t") int wr_ud_remote_qpn();

    @MemberSetter
    public native @Name("wr.ud.remote_qpn") ibv_send_wr wr_ud_remote_qpn(@Cast("uint32_t") int setter);

    @MemberGetter
    public native @Name("wr.ud.remote_qkey") @Cast("uint32_t") int wr_ud_remote_qkey();

    @MemberSetter
    public native @Name("wr.ud.remote_qkey") ibv_send_wr wr_ud_remote_qkey(@Cast("uint32_t") int setter);

    /** BIND_MW: the window, its new rkey and what it grants. */
    @MemberGetter
    public native @Name("bind_mw.mw") ibv_mw bind_mw_mw();

    @MemberSetter
    public native @Name("bind_mw.mw") ibv_send_wr bind_mw_mw(ibv_mw setter);

    @MemberGetter
    public native @Name("bind_mw.rkey") @Cast("uint32_t") int bind_mw_rkey();

    @MemberSetter
    public native @Name("bind_mw.rkey") ibv_send_wr bind_mw_rkey(@Cast("uint32_t") int setter);

    /** BIND_MW: the region, range and access of the bind; a view into this struct, not a copy. */
    @MemberGetter
    public native @Name("bind_mw.bind_info") @ByRef ibv_mw_bind_info bind_mw_bind_info();
}
