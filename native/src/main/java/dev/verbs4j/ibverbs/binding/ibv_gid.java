package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.MemberSetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * {@code union ibv_gid}: a 128-bit GID. For RoCE v2 it is the IPv6 (or IPv4-mapped) address of
 * the port.
 */
@Properties(inherit = IbverbsLibrary.class)
public final class ibv_gid extends Pointer {
    static {
        Loader.load();
    }

    /** Allocates one zeroed {@code ibv_gid}, freed by {@link #close()} or once unreachable. */
    public ibv_gid() {
        super((Pointer) null);
        allocate();
    }

    /** Allocates an array of {@code count} zeroed elements; select one with {@link #position(long)}. */
    public ibv_gid(long count) {
        super((Pointer) null);
        allocateArray(count);
        zero(); // new T[count] leaves C structs uninitialized
    }

    /** Views the native memory at {@code pointer} as {@code ibv_gid}. */
    public ibv_gid(Pointer pointer) {
        super(pointer);
    }

    private native void allocate();

    private native void allocateArray(long count);

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_gid position(long position) {
        return (ibv_gid) super.position(position);
    }

    @Override
    @SuppressWarnings("unchecked") // narrows Pointer's generic return type
    public ibv_gid getPointer(long i) {
        return new ibv_gid((Pointer) this).offsetAddress(i);
    }

    /** Byte {@code i} (0..15) in network order. */
    public native @Cast("uint8_t") byte raw(int i);

    public native ibv_gid raw(int i, @Cast("uint8_t") byte setter);

    /** The first 8 bytes, as stored (network byte order). */
    @MemberGetter
    public native @Name("global.subnet_prefix") @Cast("uint64_t") long global_subnet_prefix();

    @MemberSetter
    public native @Name("global.subnet_prefix") ibv_gid global_subnet_prefix(@Cast("uint64_t") long setter);

    /** The last 8 bytes, as stored (network byte order). */
    @MemberGetter
    public native @Name("global.interface_id") @Cast("uint64_t") long global_interface_id();

    @MemberSetter
    public native @Name("global.interface_id") ibv_gid global_interface_id(@Cast("uint64_t") long setter);
}
