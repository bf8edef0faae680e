package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_sge}: one scatter/gather element, a range of a registered memory region. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_sge extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_sge}, freed by {@link #close()} or once unreachable. */
    public ibv_sge() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_sge(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_sge}. */
    public ibv_sge(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_sge position(long position) {
        return (ibv_sge) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_sge getPointer(long i) {
        return new ibv_sge((Pointer) this).offsetAddress(i);
    }

    public native @Cast("uint64_t") long addr();

    public native ibv_sge addr(@Cast("uint64_t") long setter);

    public native @Cast("uint32_t") int length();

    public native ibv_sge length(@Cast("uint32_t") int setter);

    public native @Cast("uint32_t") int lkey();

    public native ibv_sge lkey(@Cast("uint32_t") int setter);
}
