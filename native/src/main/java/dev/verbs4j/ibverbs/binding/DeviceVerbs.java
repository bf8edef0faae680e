package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * Device discovery, contexts, device/port/GID queries and async events.
 *
 * <p>Return conventions are libibverbs' own. "errno in
 * {@link Errno#lastErrno()}" marks calls that report failure only through
 * errno; it is captured inside the call.
 */
@Properties(inherit = IbverbsLibrary.class)
@NoException
public final class DeviceVerbs {
    static {
        Loader.load();
    }

    private DeviceVerbs() {
    }

    /**
     * {@code ibv_get_device_list}: a null-terminated array of devices (free
     * with {@link #ibv_free_device_list}), or null with errno in
     * {@link Errno#lastErrno()}. A kernel without the RDMA subsystem gives
     * null and {@link Errno#ENOSYS}, not an empty list.
     *
     * @param num_devices receives the device count; may be null
     */
    @Name("verbs4j::keep_errno<ibv_get_device_list>")
    public static native @Cast("ibv_device**") PointerPointer<ibv_device> ibv_get_device_list(IntPointer num_devices);

    /** {@code ibv_free_device_list}. Devices opened before stay usable. */
    public static native void ibv_free_device_list(@Cast("ibv_device**") PointerPointer<ibv_device> list);

    /** {@code ibv_get_device_name}: the kernel device name, e.g. {@code rxe0}. */
    public static native @Cast("const char*") String ibv_get_device_name(ibv_device device);

    /** {@code ibv_get_device_guid}: node GUID in network byte order; 0 with errno on failure. */
    @Name("verbs4j::keep_errno<ibv_get_device_guid>")
    public static native @Cast("uint64_t") long ibv_get_device_guid(ibv_device device);

    /** {@code ibv_open_device}: a context, or null with errno in {@link Errno#lastErrno()}. */
    @Name("verbs4j::keep_errno<ibv_open_device>")
    public static native ibv_context ibv_open_device(ibv_device device);

    /** {@code ibv_close_device}: 0, or -1 with errno in {@link Errno#lastErrno()}. Close every object of the context first. */
    @Name("verbs4j::keep_errno<ibv_close_device>")
    public static native int ibv_close_device(ibv_context context);

    /**
     * {@code ibv_query_device_ex}: 0 or an errno value. Falls back to
     * {@code ibv_query_device} (extended fields zero) on providers without
     * the extended verb.
     *
     * @param input null (the input struct has only a comp_mask, which must be 0)
     */
    public static native int ibv_query_device_ex(
            ibv_context context, @Cast("const ibv_query_device_ex_input*") Pointer input, ibv_device_attr_ex attr);

    /** {@code ibv_query_port} (the verbs.h inline that passes the struct size): 0 or an errno value. */
    public static native int ibv_query_port(ibv_context context, @Cast("uint8_t") int port_num, ibv_port_attr port_attr);

    /**
     * {@code ibv_query_gid}: 0 (an empty slot reads as all zeroes), or -1
     * on failure with errno in {@link Errno#lastErrno()} where libibverbs
     * set one; {@link #ibv_query_gid_ex} returns the error number itself.
     */
    @Name("verbs4j::keep_errno<ibv_query_gid>")
    public static native int ibv_query_gid(ibv_context context, @Cast("uint8_t") int port_num, int index, ibv_gid gid);

    /**
     * {@code ibv_query_gid_ex}: 0 or an errno value (ENODATA for an empty
     * GID slot). Also reports the GID type and netdev.
     *
     * @param flags must be 0
     */
    public static native int ibv_query_gid_ex(ibv_context context, @Cast("uint32_t") int port_num,
            @Cast("uint32_t") int gid_index, ibv_gid_entry entry, @Cast("uint32_t") int flags);

    /**
     * {@code ibv_query_gid_table}: the number of valid entries written, or a
     * negative errno value.
     *
     * @param entries an array of at least {@code max_entries} elements
     * @param flags must be 0
     */
    public static native @Cast("ssize_t") long ibv_query_gid_table(ibv_context context, ibv_gid_entry entries,
            @Cast("size_t") long max_entries, @Cast("uint32_t") int flags);

    /** {@code ibv_query_pkey} in host order: the P_Key, or -errno (ENOENT for an index past the table). */
    @Name("verbs4j::query_pkey")
    public static native int queryPkey(ibv_context context, int port_num, int index);

    /** {@code ibv_get_pkey_index} in host order: the index, or -errno (ENOENT when the table does not hold it). */
    @Name("verbs4j::get_pkey_index")
    public static native int getPkeyIndex(ibv_context context, int port_num, int pkey);

    /** {@code ibv_fork_init}: 0 or an errno value (EINVAL once memory was registered without it). */
    public static native int ibv_fork_init();

    /** {@code ibv_is_fork_initialized}: an {@code IBV_FORK_*} status. */
    public static native @Cast("int") int ibv_is_fork_initialized();

    /**
     * {@code ibv_get_async_event}: blocks until an event is pending on
     * {@code context.async_fd}; 0, or -1 with errno in
     * {@link Errno#lastErrno()} ({@link Errno#EAGAIN} when the descriptor
     * is non-blocking and nothing is pending). Every event must be
     * acknowledged with {@link #ibv_ack_async_event}.
     */
    @Name("verbs4j::keep_errno<ibv_get_async_event>")
    public static native int ibv_get_async_event(ibv_context context, ibv_async_event event);

    /** {@code ibv_ack_async_event}: destroying the event's object waits for this. */
    public static native void ibv_ack_async_event(ibv_async_event event);

    /** {@code ibv_event_type_str}: libibverbs' text for an {@code IBV_EVENT_*} type. */
    public static native @Cast("const char*") String ibv_event_type_str(@Cast("ibv_event_type") int event_type);

    /** {@code ibv_port_state_str}: libibverbs' text for an {@code IBV_PORT_*} state. */
    public static native @Cast("const char*") String ibv_port_state_str(@Cast("ibv_port_state") int port_state);
}
