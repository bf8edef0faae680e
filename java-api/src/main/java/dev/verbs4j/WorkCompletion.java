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

    public long wrId() {
        return wrId;
    }

    public WcStatus status() {
        return status;
    }

    /** The operation; for an error completion only {@code wrId}, {@code status}, {@code qpNum} and {@code vendorError} are defined, as in libibverbs. */
    public WcOpcode opcode() {
        return opcode;
    }

    public int vendorError() {
        return vendorError;
    }

    /** Bytes received, read or written back (8 for atomics). */
    public int byteLength() {
        return byteLength;
    }

    /** The immediate data; meaningful when {@link #withImm()}. */
    public int immData() {
        return immOrInvalidatedRkey;
    }

    /** The rkey the peer invalidated; meaningful when {@link #withInv()}. */
    public int invalidatedRkey() {
        return immOrInvalidatedRkey;
    }

    /** The local QP number. */
    public int qpNum() {
        return qpNum;
    }

    /** The sender's QP number (UD receives). */
    public int srcQp() {
        return srcQp;
    }

    /** The {@link WcFlag} bits. */
    public int flags() {
        return flags;
    }

    public boolean withImm() {
        return WcFlag.WITH_IMM.isSet(flags);
    }

    public boolean withInv() {
        return WcFlag.WITH_INV.isSet(flags);
    }

    public int pkeyIndex() {
        return pkeyIndex;
    }

    public boolean isSuccess() {
        return status == WcStatus.SUCCESS;
    }

    /** Fills every field at once (for providers). */
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

    /** Sets the vendor error (for providers). */
    public WorkCompletion vendorError(int error) {
        this.vendorError = error;
        return this;
    }

    /** Sets the P_Key index (for providers). */
    public WorkCompletion pkeyIndex(int index) {
        this.pkeyIndex = index;
        return this;
    }

    /** Copies another completion (for providers). */
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
