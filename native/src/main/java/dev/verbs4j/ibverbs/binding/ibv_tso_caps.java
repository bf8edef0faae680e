package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_tso_caps}: TCP segmentation offload limits (raw packet QPs). */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_tso_caps extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_tso_caps}, freed by {@link #close()} or once unreachable. */
    public ibv_tso_caps() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_tso_caps(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_tso_caps}. */
    public ibv_tso_caps(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_tso_caps position(long position) {
        return (ibv_tso_caps) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_tso_caps getPointer(long i) {
        return new ibv_tso_caps((Pointer) this).offsetAddress(i);
    }

    @MemberGetter
    public native @Cast("uint32_t") int max_tso();

    /** Bit per {@code IBV_QPT_*} value. */
    @MemberGetter
    public native @Cast("uint32_t") int supported_qpts();
}
