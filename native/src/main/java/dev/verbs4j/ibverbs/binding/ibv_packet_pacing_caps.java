package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_packet_pacing_caps}: per-QP rate limiting support. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_packet_pacing_caps extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_packet_pacing_caps}, freed by {@link #close()} or once unreachable. */
    public ibv_packet_pacing_caps() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_packet_pacing_caps(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_packet_pacing_caps}. */
    public ibv_packet_pacing_caps(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_packet_pacing_caps position(long position) {
        return (ibv_packet_pacing_caps) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_packet_pacing_caps getPointer(long i) {
        return new ibv_packet_pacing_caps((Pointer) this).offsetAddress(i);
    }

    /** kbit/s. */
    @MemberGetter
    public native @Cast("uint32_t") int qp_rate_limit_min();

    /** kbit/s. */
    @MemberGetter
    public native @Cast("uint32_t") int qp_rate_limit_max();

    @MemberGetter
    public native @Cast("uint32_t") int supported_qpts();
}
