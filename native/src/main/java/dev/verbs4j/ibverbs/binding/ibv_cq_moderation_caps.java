package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_cq_moderation_caps}: completion moderation limits. */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_cq_moderation_caps extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_cq_moderation_caps}, freed by {@link #close()} or once unreachable. */
    public ibv_cq_moderation_caps() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_cq_moderation_caps(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_cq_moderation_caps}. */
    public ibv_cq_moderation_caps(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_cq_moderation_caps position(long position) {
        return (ibv_cq_moderation_caps) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_cq_moderation_caps getPointer(long i) {
        return new ibv_cq_moderation_caps((Pointer) this).offsetAddress(i);
    }

    @MemberGetter
    public native @Cast("uint16_t") int max_cq_count();

    /** Microseconds. */
    @MemberGetter
    public native @Cast("uint16_t") int max_cq_period();
}
