package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_mw_bind}: input of {@code ibv_bind_mw} (type-1 windows). */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_mw_bind extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_mw_bind}, freed by {@link #close()} or once unreachable. */
    public ibv_mw_bind() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_mw_bind(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_mw_bind}. */
    public ibv_mw_bind(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_mw_bind position(long position) {
        return (ibv_mw_bind) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_mw_bind getPointer(long i) {
        return new ibv_mw_bind((Pointer) this).offsetAddress(i);
    }

    /** wr_id of the bind completion. */
    public native @Cast("uint64_t") long wr_id();

    public native ibv_mw_bind wr_id(@Cast("uint64_t") long setter);

    /** {@code IBV_SEND_*} bits; SIGNALED to get a completion. */
    public native @Cast("unsigned int") int send_flags();

    public native ibv_mw_bind send_flags(@Cast("unsigned int") int setter);

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_mw_bind_info bind_info();
}
