package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_srq_attr}: shared receive queue sizes and limit ({@code ibv_modify_srq} /
 * {@code ibv_query_srq}).
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_srq_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_srq_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_srq_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_srq_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_srq_attr}. */
    public ibv_srq_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_srq_attr position(long position) {
        return (ibv_srq_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_srq_attr getPointer(long i) {
        return new ibv_srq_attr((Pointer) this).offsetAddress(i);
    }

    public native @Cast("uint32_t") int max_wr();

    public native ibv_srq_attr max_wr(@Cast("uint32_t") int setter);

    public native @Cast("uint32_t") int max_sge();

    public native ibv_srq_attr max_sge(@Cast("uint32_t") int setter);

    /** Arms {@code IBV_EVENT_SRQ_LIMIT_REACHED} when fewer WRs remain. */
    public native @Cast("uint32_t") int srq_limit();

    public native ibv_srq_attr srq_limit(@Cast("uint32_t") int setter);
}
