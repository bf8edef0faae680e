package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_gid_entry}: one GID table row from {@code ibv_query_gid_ex} / {@code
 * ibv_query_gid_table}.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_gid_entry extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_gid_entry}, freed by {@link #close()} or once unreachable. */
    public ibv_gid_entry() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_gid_entry(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_gid_entry}. */
    public ibv_gid_entry(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_gid_entry position(long position) {
        return (ibv_gid_entry) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_gid_entry getPointer(long i) {
        return new ibv_gid_entry((Pointer) this).offsetAddress(i);
    }

    /** A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_gid gid();

    @MemberGetter
    public native @Cast("uint32_t") int gid_index();

    @MemberGetter
    public native @Cast("uint32_t") int port_num();

    /** An {@code IBV_GID_TYPE_*} value (RoCE v2 is the routable one). */
    @MemberGetter
    public native @Cast("uint32_t") int gid_type();

    /** Interface index of the netdev behind a RoCE GID. */
    @MemberGetter
    public native @Cast("uint32_t") int ndev_ifindex();
}
