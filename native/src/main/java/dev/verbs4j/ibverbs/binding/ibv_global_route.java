package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.ByRef;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code struct ibv_global_route}: the GRH part of an address vector; for RoCE v2 it carries
 * the IP addressing.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_global_route extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_global_route}, freed by {@link #close()} or once unreachable. */
    public ibv_global_route() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_global_route(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_global_route}. */
    public ibv_global_route(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_global_route position(long position) {
        return (ibv_global_route) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_global_route getPointer(long i) {
        return new ibv_global_route((Pointer) this).offsetAddress(i);
    }

    /** Destination GID. A view into this struct, not a copy. */
    @MemberGetter
    public native @ByRef ibv_gid dgid();

    /** 20 bits; rxe derives the UDP source port from it. */
    public native @Cast("uint32_t") int flow_label();

    public native ibv_global_route flow_label(@Cast("uint32_t") int setter);

    /** Index of the local GID (source IP) to send from. */
    public native @Cast("uint8_t") int sgid_index();

    public native ibv_global_route sgid_index(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int hop_limit();

    public native ibv_global_route hop_limit(@Cast("uint8_t") int setter);

    public native @Cast("uint8_t") int traffic_class();

    public native ibv_global_route traffic_class(@Cast("uint8_t") int setter);
}
