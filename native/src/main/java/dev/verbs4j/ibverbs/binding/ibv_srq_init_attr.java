package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_srq_init_attr}: input of {@code ibv_create_srq}. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_srq_init_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_srq_init_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_srq_init_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_srq_init_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_srq_init_attr}. */
    public ibv_srq_init_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_srq_init_attr position(long position) {
        return (ibv_srq_init_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_srq_init_attr getPointer(long i) {
        return new ibv_srq_init_attr((Pointer) this).offsetAddress(i);
    }

    public native Pointer srq_context();

    public native ibv_srq_init_attr srq_context(Pointer setter);

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_srq_attr attr();
}
