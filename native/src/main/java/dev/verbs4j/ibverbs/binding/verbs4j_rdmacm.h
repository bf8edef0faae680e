/*
 * verbs4j JNI glue for the connection manager: the hand-written C++ of the
 * second JNI library (libjniverbs4j_rdmacm.so), linked against the system
 * librdmacm.so.1. It is a library of its own so that the verbs binding
 * loads on hosts without librdmacm.
 *
 * Every call here returns 0 or a positive errno value (or a pointer, NULL
 * with the errno in last_errno), captured inside the native call. Addresses
 * cross as raw bytes (4 for IPv4, 16 for IPv6) and host-order ports.
 */
#ifndef VERBS4J_RDMACM_H
#define VERBS4J_RDMACM_H

#include <rdma/rdma_cma.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace verbs4j {
namespace cm {

/* errno of the last pointer-returning call of this library on this thread. */
inline thread_local int last_errno = 0;

/* errno after a librdmacm call that returned -1; EIO when it set none. */
inline int cm_failure() {
    return errno != 0 ? errno : EIO;
}

/* The result convention of this file for librdmacm's "0, or -1 with errno". */
inline int cm_result(int rc) {
    return rc == 0 ? 0 : cm_failure();
}

/*
 * One event copied out of librdmacm (rdma_get_cm_event), already acknowledged.
 * The conn and ud members of the event's union both start with the private
 * data; the other fields come from the member that matches the id's QP type.
 */
struct cm_event_copy {
    struct rdma_cm_id *id;
    struct rdma_cm_id *listen_id;
    int type;
    int status;
    int responder_resources;
    int initiator_depth;
    int flow_control;
    int retry_count;
    int rnr_retry_count;
    int srq;
    uint32_t qp_num;
    uint32_t qkey;
    int private_data_len;
    uint8_t private_data[256];
};

/* rdma_create_event_channel with a non-blocking descriptor, for timed waits; NULL with last_errno. */
inline struct rdma_event_channel *create_event_channel() {
    errno = 0;
    struct rdma_event_channel *channel = rdma_create_event_channel();
    if (channel == nullptr) {
        last_errno = cm_failure();
        return nullptr;
    }
    int flags = fcntl(channel->fd, F_GETFL);
    if (flags < 0 || fcntl(channel->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        last_errno = cm_failure();
        rdma_destroy_event_channel(channel);
        return nullptr;
    }
    return channel;
}

/* rdma_create_id without a context (ids are found by address); NULL with last_errno. */
inline struct rdma_cm_id *create_id(struct rdma_event_channel *channel, int port_space) {
    struct rdma_cm_id *id = nullptr;
    errno = 0;
    if (rdma_create_id(channel, &id, nullptr, static_cast<enum rdma_port_space>(port_space)) != 0) {
        last_errno = cm_failure();
        return nullptr;
    }
    return id;
}

inline int destroy_id(struct rdma_cm_id *id) {
    errno = 0;
    return cm_result(rdma_destroy_id(id));
}

/* Fills a sockaddr_in (4 bytes) or sockaddr_in6 (16 bytes); false for another length. */
inline bool fill_sockaddr(struct sockaddr_storage *out, const uint8_t *address, int length, int port, int scope) {
    std::memset(out, 0, sizeof *out);
    if (length == 4) {
        auto *in = reinterpret_cast<struct sockaddr_in *>(out);
        in->sin_family = AF_INET;
        in->sin_port = htons(static_cast<uint16_t>(port));
        std::memcpy(&in->sin_addr, address, 4);
        return true;
    }
    if (length == 16) {
        auto *in6 = reinterpret_cast<struct sockaddr_in6 *>(out);
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(static_cast<uint16_t>(port));
        in6->sin6_scope_id = static_cast<uint32_t>(scope);
        std::memcpy(&in6->sin6_addr, address, 16);
        return true;
    }
    return false;
}

inline int bind_addr(struct rdma_cm_id *id, const uint8_t *address, int length, int port, int scope) {
    struct sockaddr_storage addr;
    if (!fill_sockaddr(&addr, address, length, port, scope)) {
        return EAFNOSUPPORT;
    }
    errno = 0;
    return cm_result(rdma_bind_addr(id, reinterpret_cast<struct sockaddr *>(&addr)));
}

/* rdma_resolve_addr; a source of length 0 lets routing choose. */
inline int resolve_addr(struct rdma_cm_id *id, const uint8_t *source, int source_length, int source_port,
                        int source_scope, const uint8_t *destination, int destination_length,
                        int destination_port, int destination_scope, int timeout_ms) {
    struct sockaddr_storage src, dst;
    bool has_source = source_length != 0;
    if ((has_source && !fill_sockaddr(&src, source, source_length, source_port, source_scope))
        || !fill_sockaddr(&dst, destination, destination_length, destination_port, destination_scope)) {
        return EAFNOSUPPORT;
    }
    errno = 0;
    return cm_result(rdma_resolve_addr(id, has_source ? reinterpret_cast<struct sockaddr *>(&src) : nullptr,
                                       reinterpret_cast<struct sockaddr *>(&dst), timeout_ms));
}

inline int resolve_route(struct rdma_cm_id *id, int timeout_ms) {
    errno = 0;
    return cm_result(rdma_resolve_route(id, timeout_ms));
}

inline int listen(struct rdma_cm_id *id, int backlog) {
    errno = 0;
    return cm_result(rdma_listen(id, backlog));
}

inline struct rdma_conn_param conn_param(const uint8_t *data, int length, int responder_resources,
                                         int initiator_depth, int flow_control, int retry_count,
                                         int rnr_retry_count, int srq, int qp_num) {
    struct rdma_conn_param param;
    std::memset(&param, 0, sizeof param);
    param.private_data = length > 0 ? data : nullptr;
    param.private_data_len = static_cast<uint8_t>(length);
    param.responder_resources = static_cast<uint8_t>(responder_resources);
    param.initiator_depth = static_cast<uint8_t>(initiator_depth);
    param.flow_control = static_cast<uint8_t>(flow_control);
    param.retry_count = static_cast<uint8_t>(retry_count);
    param.rnr_retry_count = static_cast<uint8_t>(rnr_retry_count);
    param.srq = static_cast<uint8_t>(srq);
    param.qp_num = static_cast<uint32_t>(qp_num);
    return param;
}

inline int connect(struct rdma_cm_id *id, const uint8_t *data, int length, int responder_resources,
                   int initiator_depth, int flow_control, int retry_count, int rnr_retry_count, int srq,
                   int qp_num) {
    struct rdma_conn_param param = conn_param(data, length, responder_resources, initiator_depth, flow_control,
                                              retry_count, rnr_retry_count, srq, qp_num);
    errno = 0;
    return cm_result(rdma_connect(id, &param));
}

inline int accept(struct rdma_cm_id *id, const uint8_t *data, int length, int responder_resources,
                  int initiator_depth, int flow_control, int retry_count, int rnr_retry_count, int srq,
                  int qp_num) {
    struct rdma_conn_param param = conn_param(data, length, responder_resources, initiator_depth, flow_control,
                                              retry_count, rnr_retry_count, srq, qp_num);
    errno = 0;
    return cm_result(rdma_accept(id, &param));
}

inline int reject(struct rdma_cm_id *id, const uint8_t *data, int length) {
    errno = 0;
    return cm_result(rdma_reject(id, length > 0 ? data : nullptr, static_cast<uint8_t>(length)));
}

inline int disconnect(struct rdma_cm_id *id) {
    errno = 0;
    return cm_result(rdma_disconnect(id));
}

inline int establish(struct rdma_cm_id *id) {
    errno = 0;
    return cm_result(rdma_establish(id));
}

/* rdma_init_qp_attr for the state already in attr->qp_state: the attribute mask, or -errno. */
inline int init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *attr) {
    int mask = 0;
    errno = 0;
    if (rdma_init_qp_attr(id, attr, &mask) != 0) {
        return -cm_failure();
    }
    return mask;
}

/* rdma_set_option at RDMA_OPTION_ID with a uint8_t value (TOS, ACK_TIMEOUT). */
inline int set_option_u8(struct rdma_cm_id *id, int name, int value) {
    uint8_t byte = static_cast<uint8_t>(value);
    errno = 0;
    return cm_result(rdma_set_option(id, RDMA_OPTION_ID, name, &byte, sizeof byte));
}

/* rdma_set_option at RDMA_OPTION_ID with an int value (REUSEADDR). */
inline int set_option_int(struct rdma_cm_id *id, int name, int value) {
    errno = 0;
    return cm_result(rdma_set_option(id, RDMA_OPTION_ID, name, &value, sizeof value));
}

/*
 * The local (peer == 0) or peer address of the id into out (16 bytes): 4 or
 * 16 for the bytes written, 0 when the id has no such IP address yet.
 */
inline int address(struct rdma_cm_id *id, int peer, uint8_t *out) {
    const struct sockaddr *addr = peer ? rdma_get_peer_addr(id) : rdma_get_local_addr(id);
    if (addr->sa_family == AF_INET) {
        std::memcpy(out, &reinterpret_cast<const struct sockaddr_in *>(addr)->sin_addr, 4);
        return 4;
    }
    if (addr->sa_family == AF_INET6) {
        std::memcpy(out, &reinterpret_cast<const struct sockaddr_in6 *>(addr)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/* The local (peer == 0) or peer port of the id in host order (rdma_get_src_port, rdma_get_dst_port). */
inline int port(struct rdma_cm_id *id, int peer) {
    return ntohs(peer ? rdma_get_dst_port(id) : rdma_get_src_port(id));
}

/*
 * rdma_get_cm_event on a non-blocking channel, the event copied into out and
 * acknowledged at once: 0, or an errno value (EAGAIN when none is pending).
 */
inline int next_event(struct rdma_event_channel *channel, struct cm_event_copy *out) {
    struct rdma_cm_event *event = nullptr;
    errno = 0;
    if (rdma_get_cm_event(channel, &event) != 0) {
        return cm_failure();
    }
    std::memset(out, 0, sizeof *out);
    out->id = event->id;
    out->listen_id = event->listen_id;
    out->type = event->event;
    out->status = event->status;
    const void *data;
    int length;
    if (event->id != nullptr && (event->id->qp_type == IBV_QPT_UD)) {
        const struct rdma_ud_param &ud = event->param.ud;
        out->qp_num = ud.qp_num;
        out->qkey = ud.qkey;
        data = ud.private_data;
        length = ud.private_data_len;
    } else {
        const struct rdma_conn_param &conn = event->param.conn;
        out->responder_resources = conn.responder_resources;
        out->initiator_depth = conn.initiator_depth;
        out->flow_control = conn.flow_control;
        out->retry_count = conn.retry_count;
        out->rnr_retry_count = conn.rnr_retry_count;
        out->srq = conn.srq;
        out->qp_num = conn.qp_num;
        data = conn.private_data;
        length = conn.private_data_len;
    }
    if (data != nullptr && length > 0 && event->event != RDMA_CM_EVENT_MULTICAST_JOIN
        && event->event != RDMA_CM_EVENT_MULTICAST_ERROR) {
        out->private_data_len = length;
        std::memcpy(out->private_data, data, static_cast<size_t>(length));
    }
    rdma_ack_cm_event(event);
    return 0;
}

} // namespace cm
} // namespace verbs4j

#endif
