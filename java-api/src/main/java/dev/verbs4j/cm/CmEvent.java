package dev.verbs4j.cm;

/**
 * One connection-manager event ({@code struct rdma_cm_event}), copied out of the provider
 * and already acknowledged ({@code rdma_get_cm_event} followed by {@code rdma_ack_cm_event}),
 * so it needs no release.
 *
 * @param type       what happened
 * @param id         the id it happened to; for {@link CmEventType#CONNECT_REQUEST}, the new
 *                   id of the incoming connection, which the listener accepts or rejects
 * @param listenId   for a connect request, the listening id; else {@code null}
 * @param status     0, a negative errno for the {@code *_ERROR} and {@link CmEventType#UNREACHABLE}
 *                   events, or the {@link RejectReason} number of a {@link CmEventType#REJECTED}
 * @param parameters the peer's offer for the connect events, seen from this side as librdmacm
 *                   reports it (the peer's initiator depth is this side's responder resources,
 *                   and back), its private data included at the full length the message
 *                   carries (56 bytes in a request, 196 in an accept, 148 in a reject); else
 *                   empty parameters
 */
public record CmEvent(CmEventType type, CmId id, CmId listenId, int status, ConnectionParameters parameters) {

    /**
     * The peer's private data (a copy), empty when there is none.
     *
     * @return a new array
     */
    public byte[] privateData() {
        return parameters.privateData();
    }

    /**
     * For {@link CmEventType#REJECTED}, why; else {@code null}.
     *
     * @return the reason, or null (also for a reason number this API does not name)
     */
    public RejectReason rejectReason() {
        return type == CmEventType.REJECTED ? RejectReason.of(status) : null;
    }

    @Override
    public String toString() {
        String detail = type == CmEventType.REJECTED ? " reason " + status + " (" + rejectReason() + ")"
                : status != 0 ? " status " + status : "";
        return "CmEvent[" + type + detail + "]";
    }
}
