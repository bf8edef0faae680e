package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_ah_attr}: an address vector, for {@code ibv_create_ah} and {@code
 * ibv_qp_attr.ah_attr}.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_ah_attr extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_ah_attr}, freed by {@link #close()} or once unreachable. */
    public ibv_ah_attr() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_ah_attr(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_ah_attr}. */
    public ibv_ah_attr(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_ah_attr position(long position) {
        return (ibv_ah_attr) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_ah_attr getPointer(long i) {
        return new ibv_ah_attr((Pointer) this).offsetAddress(i);
    }

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_global_route grh();

    public native @Cast("uint16_t") int dlid();

    public native ibv_ah_attr dlid(@Cast("uint16_t") int setter);

    public native @Cast("uint8_t") int sl();

    public native ibv_ah_attr sl(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int src_path_bits();

    public native ibv_ah_attr src_path_bits(@Cast("uint8_t") int setter);

    /** An {@code IBV_RATE_*} value. */
    public native @Cast("uint8_t") int static_rate();

    public native ibv_ah_attr static_rate(@Cast("uint8_t") int setter);

    /** 1 when grh is valid; required on RoCE. */
    public native @Cast("uint8_t") int is_global();

    public native ibv_ah_attr is_global(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int port_num();

    public native ibv_ah_attr port_num(@Cast("uint8_t") int setter);
}
