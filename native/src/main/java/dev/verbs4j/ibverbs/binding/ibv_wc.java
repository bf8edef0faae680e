package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_wc}: one work completion, filled by {@code ibv_poll_cq}. Allocate an array
 * ({@code new ibv_wc(n)}) once and poll into it.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_wc extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_wc}, freed by {@link #close()} or once unreachable. */
    public ibv_wc() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_wc(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_wc}. */
    public ibv_wc(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_wc position(long position) {
        return (ibv_wc) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_wc getPointer(long i) {
        return new ibv_wc((Pointer) this).offsetAddress(i);
    }

    @MemberGetter
    public native @Cast("uint64_t") long wr_id();

    /** An {@code IBV_WC_*} status; on error only wr_id, status, qp_num and vendor_err are valid. */
    @MemberGetter
    public native @Cast("ibv_wc_status") int status();

    /** An {@code IBV_WC_*} opcode; receive opcodes have the {@code IBV_WC_RECV} bit. */
    @MemberGetter
    public native @Cast("ibv_wc_opcode") int opcode();

    @MemberGetter
    public native @Cast("uint32_t") int vendor_err();

    @MemberGetter
    public native @Cast("uint32_t") int byte_len();

    /** Immediate data in network byte order, when wc_flags has {@code IBV_WC_WITH_IMM}. */
    @MemberGetter
    public native @Cast("uint32_t") int imm_data();

    /**
     * The rkey a SEND_WITH_INV invalidated, when wc_flags has {@code IBV_WC_WITH_INV} (shares
     * storage with imm_data).
     */
    @MemberGetter
    public native @Cast("uint32_t") int invalidated_rkey();

    /** Local QP number of the completed WR. */
    @MemberGetter
    public native @Cast("uint32_t") int qp_num();

    /** Remote QP number (UD). */
    @MemberGetter
    public native @Cast("uint32_t") int src_qp();

    /** {@code IBV_WC_*} flag bits. */
    @MemberGetter
    public native @Cast("unsigned int") int wc_flags();

    @MemberGetter
    public native @Cast("uint16_t") int pkey_index();

    @MemberGetter
    public native @Cast("uint16_t") int slid();

    @MemberGetter
    public native @Cast("uint8_t") int sl();

    @MemberGetter
    public native @Cast("uint8_t") int dlid_path_bits();
}
