package dev.verbs4j;

/**
 * Completion status ({@code enum ibv_wc_status}). Remote and transport failures are
 * reported here, exactly as the kernel rxe reports them; a queue pair in the error
 * state completes its outstanding requests with {@link #WR_FLUSH_ERR}.
 */
public enum WcStatus {
    /** {@code IBV_WC_SUCCESS}: the request completed; only then are the completion's other fields valid. */
    SUCCESS,

    /**
     * {@code IBV_WC_LOC_LEN_ERR}: a receive too short for the incoming message, or a message longer
     * than its transport allows.
     */
    LOC_LEN_ERR,

    /**
     * {@code IBV_WC_LOC_QP_OP_ERR}: the request is inconsistent with the queue pair's type or
     * attributes.
     */
    LOC_QP_OP_ERR,

    /**
     * {@code IBV_WC_LOC_EEC_OP_ERR}: an end-to-end context error (reliable datagram; never reported
     * here).
     */
    LOC_EEC_OP_ERR,

    /**
     * {@code IBV_WC_LOC_PROT_ERR}: a local buffer is outside its region, under a wrong lkey or in
     * another protection domain.
     */
    LOC_PROT_ERR,

    /**
     * {@code IBV_WC_WR_FLUSH_ERR}: the queue pair was in the error state; the request was flushed, not
     * executed.
     */
    WR_FLUSH_ERR,

    /**
     * {@code IBV_WC_MW_BIND_ERR}: a memory window bind failed (bad region, access, range or window
     * state).
     */
    MW_BIND_ERR,

    /** {@code IBV_WC_BAD_RESP_ERR}: the responder's answer was of an unexpected kind. */
    BAD_RESP_ERR,

    /**
     * {@code IBV_WC_LOC_ACCESS_ERR}: incoming data would land in local memory without local write
     * access.
     */
    LOC_ACCESS_ERR,

    /**
     * {@code IBV_WC_REM_INV_REQ_ERR}: the responder found the request invalid (e.g. a message longer
     * than it accepts, an operation its queue pair does not support).
     */
    REM_INV_REQ_ERR,

    /**
     * {@code IBV_WC_REM_ACCESS_ERR}: the responder refused the access: wrong rkey, range outside the
     * region, or rights not granted.
     */
    REM_ACCESS_ERR,

    /**
     * {@code IBV_WC_REM_OP_ERR}: the responder could not carry out a valid request (a remote
     * operational error of its own).
     */
    REM_OP_ERR,

    /**
     * {@code IBV_WC_RETRY_EXC_ERR}: no acknowledgement after the queue pair's retry count of local ACK
     * timeouts.
     */
    RETRY_EXC_ERR,

    /** {@code IBV_WC_RNR_RETRY_EXC_ERR}: the responder had no receive posted through all RNR retries. */
    RNR_RETRY_EXC_ERR,

    /** {@code IBV_WC_LOC_RDD_VIOL_ERR}: a reliable-datagram domain violation (never reported here). */
    LOC_RDD_VIOL_ERR,

    /** {@code IBV_WC_REM_INV_RD_REQ_ERR}: an invalid reliable-datagram request (never reported here). */
    REM_INV_RD_REQ_ERR,

    /** {@code IBV_WC_REM_ABORT_ERR}: the responder aborted the operation. */
    REM_ABORT_ERR,

    /** {@code IBV_WC_INV_EECN_ERR}: an invalid end-to-end context number (reliable datagram). */
    INV_EECN_ERR,

    /** {@code IBV_WC_INV_EEC_STATE_ERR}: an end-to-end context in a bad state (reliable datagram). */
    INV_EEC_STATE_ERR,

    /** {@code IBV_WC_FATAL_ERR}: the device failed fatally. */
    FATAL_ERR,

    /** {@code IBV_WC_RESP_TIMEOUT_ERR}: the response timed out. */
    RESP_TIMEOUT_ERR,

    /** {@code IBV_WC_GENERAL_ERR}: an error that fits no other status. */
    GENERAL_ERR,

    /** {@code IBV_WC_TM_ERR}: a tag-matching error (tag-matching receive queues only). */
    TM_ERR,

    /** {@code IBV_WC_TM_RNDV_INCOMPLETE}: a tag-matching rendezvous did not complete. */
    TM_RNDV_INCOMPLETE;


    private static final WcStatus[] VALUES = values();

    /**
     * The {@code IBV_WC_*} number, which is the declaration order in verbs.h.
     *
     * @return the number {@code ibv_wc.status} holds
     */
    public int value() {
        return ordinal();
    }

    /**
     * The status with the given number.
     *
     * @param value an {@code ibv_wc.status} number
     * @return the status
     * @throws IllegalArgumentException if the number is not an {@code enum ibv_wc_status} value
     */
    public static WcStatus of(int value) {
        if (value < 0 || value >= VALUES.length) {
            throw new IllegalArgumentException("unknown completion status " + value);
        }
        return VALUES[value];
    }
}
