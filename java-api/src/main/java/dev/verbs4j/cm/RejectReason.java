package dev.verbs4j.cm;

/**
 * Why a peer's connection manager refused a connection ({@code enum ib_cm_rej_reason},
 * IBTA table 109). A {@link CmEventType#REJECTED} event's status carries the number.
 */
public enum RejectReason {
    /** The responder has no queue pair to give the connection ({@code IB_CM_REJ_NO_QP}). */
    NO_QP(1),

    /** No end-to-end context, a reliable-datagram resource ({@code IB_CM_REJ_NO_EEC}). */
    NO_EEC(2),

    /** The responder lacks other resources for the connection ({@code IB_CM_REJ_NO_RESOURCES}). */
    NO_RESOURCES(3),

    /** The sender gave up waiting for a step of the exchange ({@code IB_CM_REJ_TIMEOUT}). */
    TIMEOUT(4),

    /**
     * The request asked for something the responder does not support
     * ({@code IB_CM_REJ_UNSUPPORTED}).
     */
    UNSUPPORTED(5),

    /**
     * The message named a communication id the receiver does not know
     * ({@code IB_CM_REJ_INVALID_COMM_ID}).
     */
    INVALID_COMM_ID(6),

    /**
     * The communication instance is not the one the receiver holds
     * ({@code IB_CM_REJ_INVALID_COMM_INSTANCE}).
     */
    INVALID_COMM_INSTANCE(7),

    /**
     * No listener on the service id (the port): what connecting to a closed port gives
     * ({@code IB_CM_REJ_INVALID_SERVICE_ID}).
     */
    INVALID_SERVICE_ID(8),

    /**
     * The transport service (RC, UC, RD) does not match the listener's
     * ({@code IB_CM_REJ_INVALID_TRANSPORT_TYPE}).
     */
    INVALID_TRANSPORT_TYPE(9),

    /**
     * The queue pair is still connected from an earlier connection that the responder considers
     * alive ({@code IB_CM_REJ_STALE_CONN}).
     */
    STALE_CONN(10),

    /** The reliable-datagram channel does not exist ({@code IB_CM_REJ_RDC_NOT_EXIST}). */
    RDC_NOT_EXIST(11),

    /** The primary path's GID is not acceptable ({@code IB_CM_REJ_INVALID_GID}). */
    INVALID_GID(12),

    /** The primary path's LID is not acceptable ({@code IB_CM_REJ_INVALID_LID}). */
    INVALID_LID(13),

    /** The primary path's service level is not acceptable ({@code IB_CM_REJ_INVALID_SL}). */
    INVALID_SL(14),

    /**
     * The primary path's traffic class is not acceptable
     * ({@code IB_CM_REJ_INVALID_TRAFFIC_CLASS}).
     */
    INVALID_TRAFFIC_CLASS(15),

    /** The primary path's hop limit is not acceptable ({@code IB_CM_REJ_INVALID_HOP_LIMIT}). */
    INVALID_HOP_LIMIT(16),

    /** The primary path's packet rate is not acceptable ({@code IB_CM_REJ_INVALID_PACKET_RATE}). */
    INVALID_PACKET_RATE(17),

    /** The alternate path's GID is not acceptable ({@code IB_CM_REJ_INVALID_ALT_GID}). */
    INVALID_ALT_GID(18),

    /** The alternate path's LID is not acceptable ({@code IB_CM_REJ_INVALID_ALT_LID}). */
    INVALID_ALT_LID(19),

    /** The alternate path's service level is not acceptable ({@code IB_CM_REJ_INVALID_ALT_SL}). */
    INVALID_ALT_SL(20),

    /**
     * The alternate path's traffic class is not acceptable
     * ({@code IB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS}).
     */
    INVALID_ALT_TRAFFIC_CLASS(21),

    /**
     * The alternate path's hop limit is not acceptable
     * ({@code IB_CM_REJ_INVALID_ALT_HOP_LIMIT}).
     */
    INVALID_ALT_HOP_LIMIT(22),

    /**
     * The alternate path's packet rate is not acceptable
     * ({@code IB_CM_REJ_INVALID_ALT_PACKET_RATE}).
     */
    INVALID_ALT_PACKET_RATE(23),

    /**
     * The requester should retry at another CM port, given in the reject's additional
     * information ({@code IB_CM_REJ_PORT_CM_REDIRECT}).
     */
    PORT_CM_REDIRECT(24),

    /** The requester should retry on another port ({@code IB_CM_REJ_PORT_REDIRECT}). */
    PORT_REDIRECT(25),

    /** The path MTU is not acceptable ({@code IB_CM_REJ_INVALID_MTU}). */
    INVALID_MTU(26),

    /**
     * The responder cannot offer the responder resources the request asked for
     * ({@code IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES}).
     */
    INSUFFICIENT_RESP_RESOURCES(27),

    /** The listening application refused ({@code rdma_reject}, {@code IB_CM_REJ_CONSUMER_DEFINED}). */
    CONSUMER_DEFINED(28),

    /** The RNR retry count is not acceptable ({@code IB_CM_REJ_INVALID_RNR_RETRY}). */
    INVALID_RNR_RETRY(29),

    /**
     * The requester reused a local communication id that is still in use
     * ({@code IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID}).
     */
    DUPLICATE_LOCAL_COMM_ID(30),

    /**
     * The CM class version in the MAD is not supported
     * ({@code IB_CM_REJ_INVALID_CLASS_VERSION}).
     */
    INVALID_CLASS_VERSION(31),

    /** The primary path's flow label is not acceptable ({@code IB_CM_REJ_INVALID_FLOW_LABEL}). */
    INVALID_FLOW_LABEL(32),

    /**
     * The alternate path's flow label is not acceptable
     * ({@code IB_CM_REJ_INVALID_ALT_FLOW_LABEL}).
     */
    INVALID_ALT_FLOW_LABEL(33),

    /**
     * A vendor-specific option the request carries is not supported
     * ({@code IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED}).
     */
    VENDOR_OPTION_NOT_SUPPORTED(35);

    private final int value;

    RejectReason(int value) {
        this.value = value;
    }

    /**
     * The number on the wire and in the event status.
     *
     * @return the reason code of the REJ message
     */
    public int value() {
        return value;
    }

    /**
     * The reason with the given number, or {@code null}.
     *
     * @param value a reject reason code, as a {@link CmEventType#REJECTED} event's status gives it
     * @return the reason, or null for a number this enum does not name
     */
    public static RejectReason of(int value) {
        for (RejectReason r : values()) {
            if (r.value == value) {
                return r;
            }
        }
        return null;
    }
}
