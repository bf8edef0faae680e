package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/** {@code struct ibv_rss_caps}: receive-side scaling limits (raw packet QPs). */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_rss_caps extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_rss_caps}, freed by {@link #close()} or once unreachable. */
    public ibv_rss_caps() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_rss_caps(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_rss_caps}. */
    public ibv_rss_caps(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_rss_caps position(long position) {
        return (ibv_rss_caps) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_rss_caps getPointer(long i) {
        return new ibv_rss_caps((Pointer) this).offsetAddress(i);
    }

    @MemberGetter
    public native @Cast("uint32_t") int supported_qpts();

    @MemberGetter
    public native @Cast("uint32_t") int max_rwq_indirection_tables();

    @MemberGetter
    public native @Cast("uint32_t") int max_rwq_indirection_table_size();

    @MemberGetter
    public native @Cast("uint64_t") long rx_hash_fields_mask();

    @MemberGetter
    public native @Cast("uint8_t") int rx_hash_function();
}
