package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_qp_init_attr}: the creation attributes {@code ibv_query_qp} reports. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_qp_init_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_qp_init_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_qp_init_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_qp_init_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_qp_init_attr}. */
    public ibv_qp_init_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_init_attr position(long position) {
        return (ibv_qp_init_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_init_attr getPointer(long i) {
        return new ibv_qp_init_attr((Pointer) this).offsetAddress(i);
    }

    public native Pointer qp_context();

    public native ibv_qp_init_attr qp_context(Pointer setter);

    public native ibv_cq send_cq();

    public native ibv_qp_init_attr send_cq(ibv_cq setter);

    public native ibv_cq recv_cq();

    public native ibv_qp_init_attr recv_cq(ibv_cq setter);

    public native ibv_srq srq();

    public native ibv_qp_init_attr srq(ibv_srq setter);

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_qp_cap cap();

    public native @Cast("ibv_qp_type") int qp_type();

    public native ibv_qp_init_attr qp_type(@Cast("ibv_qp_type") int setter);

    public native int sq_sig_all();

    public native ibv_qp_init_attr sq_sig_all(int setter);
}
