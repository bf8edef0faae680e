package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.MemberGetter;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * librdmacm's connection-manager calls, through the glue of {@code verbs4j_rdmacm.h}.
 *
 * <p>Return conventions: calls returning {@code int} give 0 or a positive errno value,
 * captured inside the call; calls returning an object give null with the errno in
 * {@link #lastErrno()}. Addresses are raw bytes, 4 for IPv4 and 16 for IPv6, with
 * host-order ports; {@code scope} is an IPv6 scope id (0 for IPv4).
 */
@Properties(inherit = RdmacmLibrary.class)
@NoException
public final class CmVerbs {
    static {
        Loader.load();
    }

    /** {@code RDMA_OPTION_ID_TOS} ({@code uint8_t}). */
    public static final int RDMA_OPTION_ID_TOS = 0;
    /** {@code RDMA_OPTION_ID_REUSEADDR} ({@code int}). */
    public static final int RDMA_OPTION_ID_REUSEADDR = 1;
    /** {@code RDMA_OPTION_ID_ACK_TIMEOUT} ({@code uint8_t}). */
    public static final int RDMA_OPTION_ID_ACK_TIMEOUT = 3;
    /** {@code RDMA_MAX_RESP_RES} and {@code RDMA_MAX_INIT_DEPTH}: "the most the device allows". */
    public static final int RDMA_MAX_DEPTH = 0xff;

    private CmVerbs() {
    }

    /** errno of the last object-returning call of this class on this thread. */
    @MemberGetter
    @Name("verbs4j::cm::last_errno")
    public static native int lastErrno();

    /** {@code rdma_create_event_channel} with the descriptor made non-blocking. */
    @Name("verbs4j::cm::create_event_channel")
    public static native rdma_event_channel createEventChannel();

    /** {@code rdma_destroy_event_channel}. */
    public static native void rdma_destroy_event_channel(rdma_event_channel channel);

    /** {@code rdma_create_id} in the port space {@code RDMA_PS_*}, without a context. */
    @Name("verbs4j::cm::create_id")
    public static native rdma_cm_id createId(rdma_event_channel channel, int portSpace);

    /** {@code rdma_destroy_id}. */
    @Name("verbs4j::cm::destroy_id")
    public static native int destroyId(rdma_cm_id id);

    /** {@code rdma_bind_addr}. */
    @Name("verbs4j::cm::bind_addr")
    public static native int bindAddr(rdma_cm_id id, @Cast("const uint8_t*") byte[] address, int length, int port,
            int scope);

    /** {@code rdma_resolve_addr}; a source of length 0 is NULL. */
    @Name("verbs4j::cm::resolve_addr")
    public static native int resolveAddr(rdma_cm_id id, @Cast("const uint8_t*") byte[] source, int sourceLength,
            int sourcePort, int sourceScope, @Cast("const uint8_t*") byte[] destination, int destinationLength,
            int destinationPort, int destinationScope, int timeoutMs);

    /** {@code rdma_resolve_route}. */
    @Name("verbs4j::cm::resolve_route")
    public static native int resolveRoute(rdma_cm_id id, int timeoutMs);

    /** {@code rdma_listen}. */
    @Name("verbs4j::cm::listen")
    public static native int listen(rdma_cm_id id, int backlog);

    /** {@code rdma_connect} with the fields of {@code struct rdma_conn_param}. */
    @Name("verbs4j::cm::connect")
    public static native int connect(rdma_cm_id id, @Cast("const uint8_t*") byte[] privateData, int length,
            int responderResources, int initiatorDepth, int flowControl, int retryCount, int rnrRetryCount, int srq,
            int qpNum);

    /** {@code rdma_accept} with the fields of {@code struct rdma_conn_param}. */
    @Name("verbs4j::cm::accept")
    public static native int accept(rdma_cm_id id, @Cast("const uint8_t*") byte[] privateData, int length,
            int responderResources, int initiatorDepth, int flowControl, int retryCount, int rnrRetryCount, int srq,
            int qpNum);

    /** {@code rdma_reject}. */
    @Name("verbs4j::cm::reject")
    public static native int reject(rdma_cm_id id, @Cast("const uint8_t*") byte[] privateData, int length);

    /** {@code rdma_disconnect}. */
    @Name("verbs4j::cm::disconnect")
    public static native int disconnect(rdma_cm_id id);

    /** {@code rdma_establish}: the RTU of an active id without a queue pair in librdmacm's eyes. */
    @Name("verbs4j::cm::establish")
    public static native int establish(rdma_cm_id id);

    /**
     * {@code rdma_init_qp_attr} for the state set in {@code attr.qp_state}: the
     * {@code IBV_QP_*} mask of the attributes filled, or a negative errno value.
     */
    @Name("verbs4j::cm::init_qp_attr")
    public static native int initQpAttr(rdma_cm_id id, ibv_qp_attr attr);

    /** {@code rdma_set_option(RDMA_OPTION_ID, name)} with a {@code uint8_t} value. */
    @Name("verbs4j::cm::set_option_u8")
    public static native int setOptionByte(rdma_cm_id id, int name, int value);

    /** {@code rdma_set_option(RDMA_OPTION_ID, name)} with an {@code int} value. */
    @Name("verbs4j::cm::set_option_int")
    public static native int setOptionInt(rdma_cm_id id, int name, int value);

    /**
     * {@code rdma_get_local_addr} ({@code peer} 0) or {@code rdma_get_peer_addr}: the IP
     * address bytes into {@code out} (16 bytes), returning 4, 16, or 0 when there is none.
     */
    @Name("verbs4j::cm::address")
    public static native int address(rdma_cm_id id, int peer, @Cast("uint8_t*") byte[] out);

    /** {@code rdma_get_src_port} ({@code peer} 0) or {@code rdma_get_dst_port}, in host order. */
    @Name("verbs4j::cm::port")
    public static native int port(rdma_cm_id id, int peer);

    /**
     * {@code rdma_get_cm_event} then {@code rdma_ack_cm_event}, the event copied into
     * {@code out} in between: 0, or an errno value ({@link Errno#EAGAIN} when none is pending).
     */
    @Name("verbs4j::cm::next_event")
    public static native int nextEvent(rdma_event_channel channel, cm_event_copy out);
}
