package dev.verbs4j.cm;

/** What a connection-manager event reports ({@code enum rdma_cm_event_type}). */
public enum CmEventType {
    /** {@code RDMA_CM_EVENT_ADDR_RESOLVED}: {@link CmId#resolveAddress} found the local device. */
    ADDR_RESOLVED,
    /** {@code RDMA_CM_EVENT_ADDR_ERROR}: address resolution failed; the status is a negative errno. */
    ADDR_ERROR,
    /** {@code RDMA_CM_EVENT_ROUTE_RESOLVED}: {@link CmId#resolveRoute} found the path. */
    ROUTE_RESOLVED,
    /** {@code RDMA_CM_EVENT_ROUTE_ERROR}: route resolution failed; the status is a negative errno. */
    ROUTE_ERROR,
    /** {@code RDMA_CM_EVENT_CONNECT_REQUEST}: a listener got a request; the event's id is the new connection. */
    CONNECT_REQUEST,
    /** {@code RDMA_CM_EVENT_CONNECT_RESPONSE}: the reply to a connect made without a queue pair. */
    CONNECT_RESPONSE,
    /** {@code RDMA_CM_EVENT_CONNECT_ERROR}: the connection failed locally; the status is a negative errno. */
    CONNECT_ERROR,
    /** {@code RDMA_CM_EVENT_UNREACHABLE}: the peer did not answer in time; the status is {@code -ETIMEDOUT}. */
    UNREACHABLE,
    /** {@code RDMA_CM_EVENT_REJECTED}: the peer refused; the status is the {@link RejectReason} number. */
    REJECTED,
    /** {@code RDMA_CM_EVENT_ESTABLISHED}: the connection is up and its queue pair can send. */
    ESTABLISHED,
    /** {@code RDMA_CM_EVENT_DISCONNECTED}: either side disconnected; the queue pair is in the error state. */
    DISCONNECTED,
    /** {@code RDMA_CM_EVENT_DEVICE_REMOVAL}: the id's device went away. */
    DEVICE_REMOVAL,
    /** {@code RDMA_CM_EVENT_MULTICAST_JOIN}. */
    MULTICAST_JOIN,
    /** {@code RDMA_CM_EVENT_MULTICAST_ERROR}. */
    MULTICAST_ERROR,
    /** {@code RDMA_CM_EVENT_ADDR_CHANGE}. */
    ADDR_CHANGE,
    /** {@code RDMA_CM_EVENT_TIMEWAIT_EXIT}: the disconnected queue pair has left time-wait and may be reused. */
    TIMEWAIT_EXIT;

    /**
     * The {@code RDMA_CM_EVENT_*} number.
     *
     * @return the number {@code rdma_cm_event.event} holds
     */
    public int value() {
        return ordinal();
    }

    /**
     * The type with the given {@code RDMA_CM_EVENT_*} number.
     *
     * @param value an {@code rdma_cm_event.event} number
     * @return the type
     * @throws IllegalArgumentException if there is none
     */
    public static CmEventType of(int value) {
        if (value < 0 || value >= values().length) {
            throw new IllegalArgumentException("no rdma_cm event type " + value);
        }
        return values()[value];
    }
}
