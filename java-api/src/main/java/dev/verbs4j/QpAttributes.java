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

    /** The mask of {@link QpAttrMask} bits set so far. */
    public int mask() {
        return mask;
    }

    /** Whether an attribute was set. */
    public boolean has(QpAttrMask attr) {
        return attr.isSet(mask);
    }

    /** Clears the mask, so the object can be reused for another modify. */
    public QpAttributes clear() {
        mask = 0;
        return this;
    }

    private QpAttributes with(QpAttrMask attr) {
        mask |= attr.value();
        return this;
    }

    public QpState state() { return state; }
    public QpAttributes state(QpState s) { state = s; return with(QpAttrMask.STATE); }

    /** The state the caller believes the QP is in ({@code IBV_QP_CUR_STATE}). */
    public QpState currentState() { return currentState; }
    public QpAttributes currentState(QpState s) { currentState = s; return with(QpAttrMask.CUR_STATE); }

    /** The remote access rights of incoming requests ({@link Access} bits). */
    public int accessMask() { return accessMask; }
    public QpAttributes access(Set<Access> access) { accessMask = Access.toMask(access); return with(QpAttrMask.ACCESS_FLAGS); }
    public QpAttributes accessMask(int bits) { accessMask = bits; return with(QpAttrMask.ACCESS_FLAGS); }

    public int pkeyIndex() { return pkeyIndex; }
    public QpAttributes pkeyIndex(int index) { pkeyIndex = index; return with(QpAttrMask.PKEY_INDEX); }

    public int port() { return port; }
    public QpAttributes port(int p) { port = p; return with(QpAttrMask.PORT); }

    public int qkey() { return qkey; }
    public QpAttributes qkey(int key) { qkey = key; return with(QpAttrMask.QKEY); }

    /** The primary path (address vector). */
    public AddressHandleAttributes av() { return av; }
    public QpAttributes av(AddressHandleAttributes path) { av = path; return with(QpAttrMask.AV); }

    public Mtu pathMtu() { return pathMtu; }
    public QpAttributes pathMtu(Mtu mtu) { pathMtu = mtu; return with(QpAttrMask.PATH_MTU); }

    /** Local ACK timeout: 4.096 µs × 2^timeout; 0 means infinite (IBTA 9.7.6.1.3). */
    public int timeout() { return timeout; }
    public QpAttributes timeout(int t) { timeout = t; return with(QpAttrMask.TIMEOUT); }

    /** Transport retries after a timeout or sequence NAK (0-7). */
    public int retryCount() { return retryCount; }
    public QpAttributes retryCount(int n) { retryCount = n; return with(QpAttrMask.RETRY_CNT); }

    /** RNR retries (0-7; 7 means infinite). */
    public int rnrRetry() { return rnrRetry; }
    public QpAttributes rnrRetry(int n) { rnrRetry = n; return with(QpAttrMask.RNR_RETRY); }

    /** The first PSN the receive side expects (24 bits). */
    public int rqPsn() { return rqPsn; }
    public QpAttributes rqPsn(int psn) { rqPsn = psn; return with(QpAttrMask.RQ_PSN); }

    /** Outstanding RDMA READ/atomic/FLUSH/ATOMIC WRITE requests this QP may issue. */
    public int maxRdAtomic() { return maxRdAtomic; }
    public QpAttributes maxRdAtomic(int n) { maxRdAtomic = n; return with(QpAttrMask.MAX_QP_RD_ATOMIC); }

    /** The RNR NAK timer code this QP's responder asks the requester to wait (IBTA table 45). */
    public int minRnrTimer() { return minRnrTimer; }
    public QpAttributes minRnrTimer(int code) { minRnrTimer = code; return with(QpAttrMask.MIN_RNR_TIMER); }

    /** The first PSN the send side uses (24 bits). */
    public int sqPsn() { return sqPsn; }
    public QpAttributes sqPsn(int psn) { sqPsn = psn; return with(QpAttrMask.SQ_PSN); }

    /** Responder resources: outstanding read-like requests this QP answers. */
    public int maxDestRdAtomic() { return maxDestRdAtomic; }
    public QpAttributes maxDestRdAtomic(int n) { maxDestRdAtomic = n; return with(QpAttrMask.MAX_DEST_RD_ATOMIC); }

    public int destQpn() { return destQpn; }
    public QpAttributes destQpn(int qpn) { destQpn = qpn; return with(QpAttrMask.DEST_QPN); }

    public int maxSendWr() { return maxSendWr; }
    public int maxRecvWr() { return maxRecvWr; }
    public int maxSendSge() { return maxSendSge; }
    public int maxRecvSge() { return maxRecvSge; }
    public int maxInlineData() { return maxInlineData; }

    /** The queue capacities ({@code IBV_QP_CAP}); reported by query. */
    public QpAttributes capacity(int sendWr, int recvWr, int sendSge, int recvSge, int inlineData) {
        maxSendWr = sendWr;
        maxRecvWr = recvWr;
        maxSendSge = sendSge;
        maxRecvSge = recvSge;
        maxInlineData = inlineData;
        return with(QpAttrMask.CAP);
    }
}
