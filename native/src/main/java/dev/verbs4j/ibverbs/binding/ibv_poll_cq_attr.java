package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_poll_cq_attr}: input of {@code ibv_start_poll}; comp_mask must be 0. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_poll_cq_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_poll_cq_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_poll_cq_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_poll_cq_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_poll_cq_attr}. */
    public ibv_poll_cq_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_poll_cq_attr position(long position) {
        return (ibv_poll_cq_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_poll_cq_attr getPointer(long i) {
        return new ibv_poll_cq_attr((Pointer) this).offsetAddress(i);
    }

    public native @Cast("uint32_t") int comp_mask();

    public native ibv_poll_cq_attr comp_mask(@Cast("uint32_t") int setter);
}
