/*
 * Test-only table of librdmacm's numbers as the C++ compiler sees them in
 * rdma/rdma_cma.h and rdma/rdma_cma_abi.h, for comparison with the Java
 * enums (dev.verbs4j.cm) and the connection-manager binding's constants.
 */
#ifndef VERBS4J_CM_HEADER_VALUES_H
#define VERBS4J_CM_HEADER_VALUES_H

#include <rdma/rdma_cma.h>
#include <rdma/rdma_cma_abi.h>

namespace verbs4j_cm_test {

struct cm_named_value {
    const char *name;
    long long value;
};

#define VERBS4J_CM_VALUE(name) {#name, (long long)(name)}

inline const cm_named_value cm_values[] = {
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_ADDR_RESOLVED),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_ADDR_ERROR),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_ROUTE_RESOLVED),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_ROUTE_ERROR),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_CONNECT_REQUEST),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_CONNECT_RESPONSE),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_CONNECT_ERROR),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_UNREACHABLE),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_REJECTED),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_ESTABLISHED),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_DISCONNECTED),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_DEVICE_REMOVAL),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_MULTICAST_JOIN),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_MULTICAST_ERROR),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_ADDR_CHANGE),
    VERBS4J_CM_VALUE(RDMA_CM_EVENT_TIMEWAIT_EXIT),
    VERBS4J_CM_VALUE(RDMA_PS_IPOIB),
    VERBS4J_CM_VALUE(RDMA_PS_TCP),
    VERBS4J_CM_VALUE(RDMA_PS_UDP),
    VERBS4J_CM_VALUE(RDMA_PS_IB),
    VERBS4J_CM_VALUE(RDMA_OPTION_ID_TOS),
    VERBS4J_CM_VALUE(RDMA_OPTION_ID_REUSEADDR),
    VERBS4J_CM_VALUE(RDMA_OPTION_ID_ACK_TIMEOUT),
    VERBS4J_CM_VALUE(RDMA_MAX_RESP_RES),
    VERBS4J_CM_VALUE(RDMA_MAX_INIT_DEPTH),
    VERBS4J_CM_VALUE(RDMA_MAX_PRIVATE_DATA),
};

/* The value of a name in the table, or LLONG_MIN when it is not there. */
inline long long cm_value(const char *name) {
    for (const cm_named_value &entry : cm_values) {
        if (std::strcmp(entry.name, name) == 0) {
            return entry.value;
        }
    }
    return LLONG_MIN;
}

} // namespace verbs4j_cm_test

#endif
