package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_data_buf}: one buffer of {@code ibv_wr_set_inline_data_list}. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_data_buf extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_data_buf}, freed by {@link #close()} or once unreachable. */
    public ibv_data_buf() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_data_buf(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_data_buf}. */
    public ibv_data_buf(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_data_buf position(long position) {
        return (ibv_data_buf) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_data_buf getPointer(long i) {
        return new ibv_data_buf((Pointer) this).offsetAddress(i);
    }

    public native Pointer addr();

    public native ibv_data_buf addr(Pointer setter);

    public native @Cast("size_t") long length();

    public native ibv_data_buf length(@Cast("size_t") long setter);
}
