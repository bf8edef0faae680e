package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_mw_bind_info}: what a memory window bind grants: a range of an MR and the
 * access rights.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_mw_bind_info extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_mw_bind_info}, freed by {@link #close()} or once unreachable. */
    public ibv_mw_bind_info() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_mw_bind_info(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_mw_bind_info}. */
    public ibv_mw_bind_info(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_mw_bind_info position(long position) {
        return (ibv_mw_bind_info) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_mw_bind_info getPointer(long i) {
        return new ibv_mw_bind_info((Pointer) this).offsetAddress(i);
    }

    /** Null with zero addr/length invalidates a type-1 window. */
    public native ibv_mr mr();

    public native ibv_mw_bind_info mr(ibv_mr setter);

    public native @Cast("uint64_t") long addr();

    public native ibv_mw_bind_info addr(@Cast("uint64_t") long setter);

    public native @Cast("uint64_t") long length();

    public native ibv_mw_bind_info length(@Cast("uint64_t") long setter);

    /** {@code IBV_ACCESS_REMOTE_*} bits. */
    public native @Cast("unsigned int") int mw_access_flags();

    public native ibv_mw_bind_info mw_access_flags(@Cast("unsigned int") int setter);
}
