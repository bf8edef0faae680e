package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_async_event}: filled by {@code ibv_get_async_event}; which element is valid
 * depends on event_type.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_async_event extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_async_event}, freed by {@link #close()} or once unreachable. */
    public ibv_async_event() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_async_event(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_async_event}. */
    public ibv_async_event(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_async_event position(long position) {
        return (ibv_async_event) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_async_event getPointer(long i) {
        return new ibv_async_event((Pointer) this).offsetAddress(i);
    }

    /** For CQ events. */
    @MemberGetter
    public native @Name("element.cq") ibv_cq element_cq();

    /** For QP events. */
    @MemberGetter
    public native @Name("element.qp") ibv_qp element_qp();

    /** For SRQ events. */
    @MemberGetter
    public native @Name("element.srq") ibv_srq element_srq();

    /** For port events. */
    @MemberGetter
    public native @Name("element.port_num") int element_port_num();

    /** An {@code IBV_EVENT_*} value. */
    @MemberGetter
    public native @Cast("ibv_event_type") int event_type();
}
