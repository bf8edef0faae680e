package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_recv_wr}: a receive work request for {@code ibv_post_recv} / {@code
 * ibv_post_srq_recv}; link several through next.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_recv_wr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_recv_wr}, freed by {@link #close()} or once unreachable. */
    public ibv_recv_wr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_recv_wr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_recv_wr}. */
    public ibv_recv_wr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_recv_wr position(long position) {
        return (ibv_recv_wr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_recv_wr getPointer(long i) {
        return new ibv_recv_wr((Pointer) this).offsetAddress(i);
    }

    public native @Cast("uint64_t") long wr_id();

    public native ibv_recv_wr wr_id(@Cast("uint64_t") long setter);

    public native ibv_recv_wr next();

    public native ibv_recv_wr next(ibv_recv_wr setter);

    public native ibv_sge sg_list();

    public native ibv_recv_wr sg_list(ibv_sge setter);

    public native int num_sge();

    public native ibv_recv_wr num_sge(int setter);
}
