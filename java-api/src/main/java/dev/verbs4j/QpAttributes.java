package dev.verbs4j;

import java.util.Set;

/**
 * Queue pair attributes for {@link QueuePair#modify} and {@link QueuePair#query}
 * ({@code struct ibv_qp_attr} plus its mask). Each setter also sets its mask bit; only
 * attributes whose bit is set are applied. For an RC queue pair the usual transitions are:
 * <ul>
 * <li>RESET→INIT: state, pkeyIndex, port, access</li>
 * <li>INIT→RTR: state, av, pathMtu, destQpn, rqPsn, maxDestRdAtomic, minRnrTimer</li>
 * <li>RTR→RTS: state, sqPsn, timeout, retryCount, rnrRetry, maxRdAtomic</li>
 * </ul>
 * UD needs qkey instead of access at INIT, nothing but the state at RTR, and sqPsn at RTS.
 */
public final class QpAttributes {
    private int mask;
    private QpState state = QpState.RESET;
    private QpState currentState = QpState.RESET;
    private int accessMask;
    private int pkeyIndex;
    private int port = 1;
    private int qkey;
    private AddressHandleAttributes av;
    private Mtu pathMtu = Mtu.MTU_1024;
    private int timeout;
    private int retryCount;
    private int rnrRetry;
    private int rqPsn;
    private int maxRdAtomic;
    private int minRnrTimer;
    private int sqPsn;
    private int maxDestRdAtomic;
    private int destQpn;
    private int maxSendWr;
    private int maxRecvWr;
    private int maxSendSge;
    private int maxRecvSge;
    private int maxInlineData;

    /** Attributes with no mask bit set: nothing to apply yet. */
    public QpAttributes() {
    }

    /**
     * The mask of {@link QpAttrMask} bits set so far.
     * It is {@code attr_mask} of {@code ibv_modify_qp}.
     *
     * @return an OR of {@link QpAttrMask#value()} bits
     */
    public int mask() {
        return mask;
    }

    /**
     * Whether an attribute was set.
     *
     * @param attr the attribute
     * @return true if its setter was called since the last {@link #clear()}
     */
    public boolean has(QpAttrMask attr) {
        return attr.isSet(mask);
    }

    /**
     * Clears the mask, so the object can be reused for another modify.
     * The values stay; only those set again are applied.
     *
     * @return these attributes
     */
    public QpAttributes clear() {
        mask = 0;
        return this;
    }

    private QpAttributes with(QpAttrMask attr) {
        mask |= attr.value();
        return this;
    }

    /**
     * The state to move to ({@code qp_state}, mask {@code IBV_QP_STATE}); after
     * {@link QueuePair#query}, the state the queue pair is in.
     *
     * @return the state; {@link QpState#RESET} until set
     */
    public QpState state() { return state; }
    /**
     * Sets the state to move to. Every {@link QueuePair#modify} needs it; a transition the
     * state machine does not allow fails with {@code EINVAL}.
     *
     * @param s the next state
     * @return these attributes
     */
    public QpAttributes state(QpState s) { state = s; return with(QpAttrMask.STATE); }

    /**
     * The state the caller believes the QP is in ({@code IBV_QP_CUR_STATE}).
     *
     * @return the state; {@link QpState#RESET} until set
     */
    public QpState currentState() { return currentState; }
    /**
     * Sets the state the caller believes the queue pair is in ({@code cur_qp_state}); a modify
     * fails with {@code EINVAL} when it differs from the real one.
     *
     * @param s the assumed current state
     * @return these attributes
     */
    public QpAttributes currentState(QpState s) { currentState = s; return with(QpAttrMask.CUR_STATE); }

    /**
     * The remote access rights of incoming requests ({@link Access} bits).
     * It is {@code qp_access_flags}: only {@link Access#REMOTE_WRITE}, {@link Access#REMOTE_READ} and
     * {@link Access#REMOTE_ATOMIC} count.
     *
     * @return the bits
     */
    public int accessMask() { return accessMask; }
    /**
     * Sets the remote operations that incoming requests may perform ({@code IBV_QP_ACCESS_FLAGS});
     * an RC queue pair needs it at RESET→INIT.
     *
     * @param access the rights
     * @return these attributes
     */
    public QpAttributes access(Set<Access> access) { accessMask = Access.toMask(access); return with(QpAttrMask.ACCESS_FLAGS); }
    /**
     * Sets the remote access rights as {@link Access#value()} bits ({@code IBV_QP_ACCESS_FLAGS}).
     *
     * @param bits an OR of access bits
     * @return these attributes
     */
    public QpAttributes accessMask(int bits) { accessMask = bits; return with(QpAttrMask.ACCESS_FLAGS); }

    /**
     * The index in the port's P_Key table of the partition key this queue pair uses
     * ({@code pkey_index}).
     *
     * @return the index; 0 until set
     */
    public int pkeyIndex() { return pkeyIndex; }
    /**
     * Sets the P_Key index ({@code IBV_QP_PKEY_INDEX}), needed at RESET→INIT; an index beyond the
     * port's table fails the modify with {@code EINVAL}.
     *
     * @param index the table index
     * @return these attributes
     */
    public QpAttributes pkeyIndex(int index) { pkeyIndex = index; return with(QpAttrMask.PKEY_INDEX); }

    /**
     * The physical port the queue pair is bound to ({@code port_num}, 1-based).
     *
     * @return the port; 1 until set
     */
    public int port() { return port; }
    /**
     * Sets the port ({@code IBV_QP_PORT}), needed at RESET→INIT.
     *
     * @param p the port number, 1 to the device's port count
     * @return these attributes
     */
    public QpAttributes port(int p) { port = p; return with(QpAttrMask.PORT); }

    /**
     * The Q_Key of a UD queue pair ({@code qkey}): datagrams whose key differs are dropped.
     *
     * @return the key as an unsigned 32-bit value in an int
     */
    public int qkey() { return qkey; }
    /**
     * Sets the Q_Key ({@code IBV_QP_QKEY}), needed by a UD queue pair at RESET→INIT.
     *
     * @param key the key; keys with the high bit set are controlled keys
     * @return these attributes
     */
    public QpAttributes qkey(int key) { qkey = key; return with(QpAttrMask.QKEY); }

    /**
     * The primary path (address vector).
     * It is {@code ah_attr}.
     *
     * @return the path, or null until set
     */
    public AddressHandleAttributes av() { return av; }
    /**
     * Sets the primary path to the peer ({@code IBV_QP_AV}), needed by RC and UC at INIT→RTR.
     *
     * @param path the peer's GID (RoCE) or LID, the local GID index and hop limit
     * @return these attributes
     */
    public QpAttributes av(AddressHandleAttributes path) { av = path; return with(QpAttrMask.AV); }

    /**
     * The path MTU ({@code path_mtu}): the largest payload of one packet.
     *
     * @return the MTU; {@link Mtu#MTU_1024} until set
     */
    public Mtu pathMtu() { return pathMtu; }
    /**
     * Sets the path MTU ({@code IBV_QP_PATH_MTU}), needed by RC and UC at INIT→RTR.
     *
     * @param mtu the MTU
     * @return these attributes
     */
    public QpAttributes pathMtu(Mtu mtu) { pathMtu = mtu; return with(QpAttrMask.PATH_MTU); }

    /**
     * Local ACK timeout: 4.096 µs × 2^timeout; 0 means infinite (IBTA 9.7.6.1.3).
     * It is {@code timeout}.
     *
     * @return the exponent, 0-31
     */
    public int timeout() { return timeout; }
    /**
     * Sets the local ACK timeout exponent ({@code IBV_QP_TIMEOUT}), used by RC at RTR→RTS.
     *
     * @param t the exponent, 0-31
     * @return these attributes
     */
    public QpAttributes timeout(int t) { timeout = t; return with(QpAttrMask.TIMEOUT); }

    /**
     * Transport retries after a timeout or sequence NAK (0-7).
     * It is {@code retry_cnt}.
     *
     * @return the count
     */
    public int retryCount() { return retryCount; }
    /**
     * Sets the transport retry count ({@code IBV_QP_RETRY_CNT}), used by RC at RTR→RTS; once
     * exhausted the request completes with {@link WcStatus#RETRY_EXC_ERR}.
     *
     * @param n retries, 0-7
     * @return these attributes
     */
    public QpAttributes retryCount(int n) { retryCount = n; return with(QpAttrMask.RETRY_CNT); }

    /**
     * RNR retries (0-7; 7 means infinite).
     * It is {@code rnr_retry}.
     *
     * @return the count
     */
    public int rnrRetry() { return rnrRetry; }
    /**
     * Sets the RNR retry count ({@code IBV_QP_RNR_RETRY}), used by RC at RTR→RTS; once exhausted
     * the request completes with {@link WcStatus#RNR_RETRY_EXC_ERR}.
     *
     * @param n retries, 0-7, 7 retrying for ever
     * @return these attributes
     */
    public QpAttributes rnrRetry(int n) { rnrRetry = n; return with(QpAttrMask.RNR_RETRY); }

    /**
     * The first PSN the receive side expects (24 bits).
     * It is {@code rq_psn}.
     *
     * @return the PSN
     */
    public int rqPsn() { return rqPsn; }
    /**
     * Sets the receive side's first expected PSN ({@code IBV_QP_RQ_PSN}), needed by RC and UC at
     * INIT→RTR: the peer's send PSN.
     *
     * @param psn the PSN; bits above the low 24 are ignored
     * @return these attributes
     */
    public QpAttributes rqPsn(int psn) { rqPsn = psn; return with(QpAttrMask.RQ_PSN); }

    /**
     * Outstanding RDMA READ/atomic/FLUSH/ATOMIC WRITE requests this QP may issue.
     * It is {@code max_rd_atomic}.
     *
     * @return the count
     */
    public int maxRdAtomic() { return maxRdAtomic; }
    /**
     * Sets the initiator depth ({@code IBV_QP_MAX_QP_RD_ATOMIC}), used by RC at RTR→RTS; more than
     * the device's {@code max_qp_rd_atom} fails the modify with {@code EINVAL}.
     *
     * @param n outstanding requests
     * @return these attributes
     */
    public QpAttributes maxRdAtomic(int n) { maxRdAtomic = n; return with(QpAttrMask.MAX_QP_RD_ATOMIC); }

    /**
     * The RNR NAK timer code this QP's responder asks the requester to wait (IBTA table 45).
     * It is {@code min_rnr_timer}.
     *
     * @return the timer code, 0-31
     */
    public int minRnrTimer() { return minRnrTimer; }
    /**
     * Sets the RNR NAK timer code ({@code IBV_QP_MIN_RNR_TIMER}), used by RC at INIT→RTR.
     *
     * @param code the code, 0-31 (0 means 655.36 ms, 1 means 0.01 ms)
     * @return these attributes
     */
    public QpAttributes minRnrTimer(int code) { minRnrTimer = code; return with(QpAttrMask.MIN_RNR_TIMER); }

    /**
     * The first PSN the send side uses (24 bits).
     * It is {@code sq_psn}.
     *
     * @return the PSN
     */
    public int sqPsn() { return sqPsn; }
    /**
     * Sets the send side's first PSN ({@code IBV_QP_SQ_PSN}), needed at RTR→RTS: what the peer set
     * as its {@link #rqPsn}.
     *
     * @param psn the PSN; bits above the low 24 are ignored
     * @return these attributes
     */
    public QpAttributes sqPsn(int psn) { sqPsn = psn; return with(QpAttrMask.SQ_PSN); }

    /**
     * Responder resources: outstanding read-like requests this QP answers.
     * It is {@code max_dest_rd_atomic}.
     *
     * @return the count
     */
    public int maxDestRdAtomic() { return maxDestRdAtomic; }
    /**
     * Sets the responder resources ({@code IBV_QP_MAX_DEST_RD_ATOMIC}), used by RC at INIT→RTR; more
     * than the device's {@code max_qp_rd_atom} fails the modify with {@code EINVAL}.
     *
     * @param n read-like requests answered at once
     * @return these attributes
     */
    public QpAttributes maxDestRdAtomic(int n) { maxDestRdAtomic = n; return with(QpAttrMask.MAX_DEST_RD_ATOMIC); }

    /**
     * The peer's queue pair number ({@code dest_qp_num}).
     *
     * @return the number (24 bits)
     */
    public int destQpn() { return destQpn; }
    /**
     * Sets the peer's queue pair number ({@code IBV_QP_DEST_QPN}), needed by RC and UC at INIT→RTR.
     *
     * @param qpn the number; bits above the low 24 are ignored
     * @return these attributes
     */
    public QpAttributes destQpn(int qpn) { destQpn = qpn; return with(QpAttrMask.DEST_QPN); }

    /**
     * The send queue's depth in work requests ({@code cap.max_send_wr}), as {@link QueuePair#query}
     * reports it.
     *
     * @return the depth
     */
    public int maxSendWr() { return maxSendWr; }
    /**
     * The receive queue's depth in work requests ({@code cap.max_recv_wr}); 0 for a queue pair on a
     * shared receive queue.
     *
     * @return the depth
     */
    public int maxRecvWr() { return maxRecvWr; }
    /**
     * The gather entries one send request may carry ({@code cap.max_send_sge}).
     *
     * @return the count
     */
    public int maxSendSge() { return maxSendSge; }
    /**
     * The scatter entries one receive request may carry ({@code cap.max_recv_sge}).
     *
     * @return the count
     */
    public int maxRecvSge() { return maxRecvSge; }
    /**
     * The bytes one inline send may carry ({@code cap.max_inline_data}).
     *
     * @return the size in bytes
     */
    public int maxInlineData() { return maxInlineData; }

    /**
     * The queue capacities ({@code IBV_QP_CAP}); reported by query.
     *
     * @param sendWr {@code max_send_wr}
     * @param recvWr {@code max_recv_wr}
     * @param sendSge {@code max_send_sge}
     * @param recvSge {@code max_recv_sge}
     * @param inlineData {@code max_inline_data}, in bytes
     * @return these attributes
     */
    public QpAttributes capacity(int sendWr, int recvWr, int sendSge, int recvSge, int inlineData) {
        maxSendWr = sendWr;
        maxRecvWr = recvWr;
        maxSendSge = sendSge;
        maxRecvSge = recvSge;
        maxInlineData = inlineData;
        return with(QpAttrMask.CAP);
    }
}
