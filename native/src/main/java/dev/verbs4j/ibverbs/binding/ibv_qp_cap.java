package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_qp_cap}: queue sizes requested at QP creation and reported back (possibly
 * rounded up).
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_qp_cap extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_qp_cap}, freed by {@link #close()} or once unreachable. */
    public ibv_qp_cap() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_qp_cap(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_qp_cap}. */
    public ibv_qp_cap(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_cap position(long position) {
        return (ibv_qp_cap) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_qp_cap getPointer(long i) {
        return new ibv_qp_cap((Pointer) this).offsetAddress(i);
    }

    public native @Cast("uint32_t") int max_send_wr();

    public native ibv_qp_cap max_send_wr(@Cast("uint32_t") int setter);

    public native @Cast("uint32_t") int max_recv_wr();

    public native ibv_qp_cap max_recv_wr(@Cast("uint32_t") int setter);

    public native @Cast("uint32_t") int max_send_sge();

    public native ibv_qp_cap max_send_sge(@Cast("uint32_t") int setter);

    public native @Cast("uint32_t") int max_recv_sge();

    public native ibv_qp_cap max_recv_sge(@Cast("uint32_t") int setter);

    public native @Cast("uint32_t") int max_inline_data();

    public native ibv_qp_cap max_inline_data(@Cast("uint32_t") int setter);
}
