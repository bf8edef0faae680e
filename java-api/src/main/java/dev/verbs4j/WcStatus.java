package dev.verbs4j;

/**
 * Completion status ({@code enum ibv_wc_status}). Remote and transport failures are
 * reported here, exactly as the kernel rxe reports them; a queue pair in the error
 * state completes its outstanding requests with {@link #WR_FLUSH_ERR}.
 */
public enum WcStatus {
    SUCCESS, LOC_LEN_ERR, LOC_QP_OP_ERR, LOC_EEC_OP_ERR, LOC_PROT_ERR, WR_FLUSH_ERR, MW_BIND_ERR,
    BAD_RESP_ERR, LOC_ACCESS_ERR, REM_INV_REQ_ERR, REM_ACCESS_ERR, REM_OP_ERR, RETRY_EXC_ERR,
    RNR_RETRY_EXC_ERR, LOC_RDD_VIOL_ERR, REM_INV_RD_REQ_ERR, REM_ABORT_ERR, INV_EECN_ERR,
    INV_EEC_STATE_ERR, FATAL_ERR, RESP_TIMEOUT_ERR, GENERAL_ERR, TM_ERR, TM_RNDV_INCOMPLETE;

    private static final WcStatus[] VALUES = values();

    /** The {@code IBV_WC_*} number, which is the declaration order in verbs.h. */
    public int value() {
        return ordinal();
    }

    /** The status with the given number. */
    public static WcStatus of(int value) {
        if (value < 0 || value >= VALUES.length) {
            throw new IllegalArgumentException("unknown completion status " + value);
        }
        return VALUES[value];
    }
}
