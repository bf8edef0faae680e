package dev.verbs4j;

/**
 * A work completion ({@code struct ibv_wc}). Reusable and caller-owned: polling fills
 * the caller's objects and allocates nothing. The setters are for providers.
 */
public final class WorkCompletion {
    private long wrId;
    private WcStatus status = WcStatus.SUCCESS;
    private WcOpcode opcode = WcOpcode.SEND;
    private int vendorError;
    private int byteLength;
    private int immOrInvalidatedRkey;
    private int qpNum;
    private int srcQp;
    private int flags;
    private int pkeyIndex;

    /** An empty completion, for a poll to fill. */
    public WorkCompletion() {
    }

    /**
     * The id of the work request that completed ({@code wr_id}), as the caller set it.
     *
     * @return the id; valid in every completion, failed or not
     */
    public long wrId() {
        return wrId;
    }

    /**
     * The outcome ({@code status}).
     *
     * @return the status; {@link WcStatus#SUCCESS} when the request succeeded
     */
    public WcStatus status() {
        return status;
    }

    /**
     * The operation; for an error completion only {@code wrId}, {@code status}, {@code qpNum} and {@code vendorError} are defined, as in libibverbs.
     *
     * @return the operation ({@code opcode})
     */
    public WcOpcode opcode() {
        return opcode;
    }

    /**
     * The device's own error code for a failed completion ({@code vendor_err}).
     *
     * @return the code; 0 when the provider gives none
     */
    public int vendorError() {
        return vendorError;
    }

    /**
     * Bytes received, read or written back (8 for atomics).
     * It is {@code byte_len}: for a receive, the bytes that arrived (a UD receive counts the 40-byte
     * GRH space too).
     *
     * @return bytes
     */
    public int byteLength() {
        return byteLength;
    }

    /**
     * The immediate data; meaningful when {@link #withImm()}.
     * It is {@code imm_data}, converted from network order.
     *
     * @return the value in host order
     */
    public int immData() {
        return immOrInvalidatedRkey;
    }

    /**
     * The rkey the peer invalidated; meaningful when {@link #withInv()}.
     * It is {@code invalidated_rkey}, which shares storage with {@code imm_data}.
     *
     * @return the key
     */
    public int invalidatedRkey() {
        return immOrInvalidatedRkey;
    }

    /**
     * The local QP number.
     * It is {@code qp_num}: which queue pair the completion belongs to, when queue pairs share a
     * completion queue.
     *
     * @return the number (24 bits)
     */
    public int qpNum() {
        return qpNum;
    }

    /**
     * The sender's QP number (UD receives).
     * It is {@code src_qp}.
     *
     * @return the number (24 bits); 0 where the transport does not carry it
     */
    public int srcQp() {
        return srcQp;
    }

    /**
     * The {@link WcFlag} bits.
     * It is {@code wc_flags}.
     *
     * @return an OR of {@link WcFlag#value()} bits
     */
    public int flags() {
        return flags;
    }

    /**
     * Whether the completion carries immediate data ({@code IBV_WC_WITH_IMM}).
     *
     * @return true if {@link #immData()} is meaningful
     */
    public boolean withImm() {
        return WcFlag.WITH_IMM.isSet(flags);
    }

    /**
     * Whether the peer invalidated one of this side's rkeys ({@code IBV_WC_WITH_INV}).
     *
     * @return true if {@link #invalidatedRkey()} is meaningful
     */
    public boolean withInv() {
        return WcFlag.WITH_INV.isSet(flags);
    }

    /**
     * The P_Key index of a received UD or GSI datagram ({@code pkey_index}).
     *
     * @return the index; 0 where the provider does not report it
     */
    public int pkeyIndex() {
        return pkeyIndex;
    }

    /**
     * Whether the request succeeded ({@code status == IBV_WC_SUCCESS}).
     *
     * @return true on success
     */
    public boolean isSuccess() {
        return status == WcStatus.SUCCESS;
    }

    /**
     * Fills every field at once (for providers).
     * The vendor error and the P_Key index become 0.
     *
     * @param wrId the request's id
     * @param status the outcome
     * @param opcode the operation
     * @param byteLength bytes transferred
     * @param qpNum the local queue pair number
     * @param srcQp the sender's queue pair number (UD receives)
     * @param flags {@link WcFlag} bits
     * @param immOrInvalidatedRkey the immediate data in host order, or the invalidated rkey
     * @return this completion
     */
    public WorkCompletion set(long wrId, WcStatus status, WcOpcode opcode, int byteLength, int qpNum,
                              int srcQp, int flags, int immOrInvalidatedRkey) {
        this.wrId = wrId;
        this.status = status;
        this.opcode = opcode;
        this.byteLength = byteLength;
        this.qpNum = qpNum;
        this.srcQp = srcQp;
        this.flags = flags;
        this.immOrInvalidatedRkey = immOrInvalidatedRkey;
        this.vendorError = 0;
        this.pkeyIndex = 0;
        return this;
    }

    /**
     * Sets the vendor error (for providers).
     *
     * @param error the device's code
     * @return this completion
     */
    public WorkCompletion vendorError(int error) {
        this.vendorError = error;
        return this;
    }

    /**
     * Sets the P_Key index (for providers).
     *
     * @param index the P_Key index
     * @return this completion
     */
    public WorkCompletion pkeyIndex(int index) {
        this.pkeyIndex = index;
        return this;
    }

    /**
     * Copies another completion (for providers).
     *
     * @param o the completion to copy, unchanged
     * @return this completion
     */
    public WorkCompletion copyFrom(WorkCompletion o) {
        set(o.wrId, o.status, o.opcode, o.byteLength, o.qpNum, o.srcQp, o.flags, o.immOrInvalidatedRkey);
        vendorError = o.vendorError;
        pkeyIndex = o.pkeyIndex;
        return this;
    }

    @Override
    public String toString() {
        return "WorkCompletion[wrId=" + wrId + ", status=" + status + ", opcode=" + opcode + ", byteLength=" + byteLength
                + ", qpNum=" + qpNum + ", srcQp=" + srcQp + ", flags=" + flags
                + (withImm() || withInv() ? ", imm/invRkey=0x" + Integer.toHexString(immOrInvalidatedRkey) : "") + "]";
    }
}
