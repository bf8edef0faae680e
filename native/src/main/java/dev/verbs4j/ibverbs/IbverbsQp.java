package dev.verbs4j.ibverbs;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DataInOrder;
import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.MemoryVerbs;
import dev.verbs4j.ibverbs.binding.QueuePairVerbs;
import dev.verbs4j.ibverbs.binding.ibv_mw_bind;
import dev.verbs4j.ibverbs.binding.ibv_qp;
import dev.verbs4j.ibverbs.binding.ibv_qp_attr;
import dev.verbs4j.ibverbs.binding.ibv_qp_ex;
import dev.verbs4j.ibverbs.binding.ibv_qp_init_attr;
import dev.verbs4j.spi.Resource;

import java.util.Set;

/**
 * A queue pair ({@code struct ibv_qp}, created extended where the provider can; see
 * {@link QpFactory}). Posts, modify and query run
 * under the queue pair's monitor, which also keeps {@code ibv_destroy_qp} from running
 * under a post.
 */
final class IbverbsQp extends Resource implements QueuePair {
    final IbverbsPd pd;
    final ibv_qp handle;
    private final IbverbsCq sendCq;
    private final IbverbsCq recvCq;
    private final IbverbsSrq srq;
    private final QpType type;
    private final int qpn;
    private final QpCapacity capacity;
    private final SendPoster sender;
    private final ReceivePoster receiver;
    private final ibv_qp_attr attr = new ibv_qp_attr(); // guarded by this
    private final ibv_qp_init_attr initAttr = new ibv_qp_init_attr(); // guarded by this
    private final ibv_mw_bind bind = new ibv_mw_bind(); // guarded by this

    IbverbsQp(IbverbsPd pd, IbverbsCq sendCq, IbverbsCq recvCq, IbverbsSrq srq, QpType type, ibv_qp handle,
              ibv_qp_ex extended, QpCapacity capacity, long sendOpsFlags) {
        super("queue pair", pd, sendCq, recvCq, srq);
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.type = type;
        this.handle = handle;
        this.qpn = handle.qp_num();
        this.capacity = capacity;
        this.sender = new SendPoster(extended, handle, sendOpsFlags, type == QpType.UD, capacity.maxSendSge(),
                capacity.maxInlineData(), pd.regions, pd.context);
        this.receiver = srq == null ? new ReceivePoster(capacity.maxRecvSge()) : null;
    }

    @Override
    public int qpn() {
        return qpn;
    }

    @Override
    public QpType type() {
        return type;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public CompletionQueue sendCq() {
        return sendCq;
    }

    @Override
    public CompletionQueue recvCq() {
        return recvCq;
    }

    @Override
    public SharedReceiveQueue srq() {
        return srq;
    }

    /** The sizes the provider granted at creation. */
    QpCapacity capacity() {
        return capacity;
    }

    /** The state as the device reports it ({@code ibv_query_qp} with {@code IBV_QP_STATE}). */
    @Override
    public synchronized QpState state() {
        ensureOpen();
        attr.zero();
        NativeErrors.check(QueuePairVerbs.ibv_query_qp(handle, attr, IbverbsConstants.IBV_QP_STATE, initAttr),
                "ibv_query_qp(state)");
        return QpState.of(attr.qp_state());
    }

    @Override
    public synchronized void modify(QpAttributes attributes) {
        ensureOpen();
        attr.zero();
        int mask = QpAttributeMapping.write(attributes, attr);
        NativeErrors.check(QueuePairVerbs.ibv_modify_qp(handle, attr, mask),
                "ibv_modify_qp(QP 0x" + Integer.toHexString(qpn) + ", mask 0x" + Integer.toHexString(mask) + ")");
    }

    /**
     * {@code ibv_modify_qp} with attributes another call filled (the connection manager's
     * {@code rdma_init_qp_attr}).
     *
     * @param target the state, for the message
     */
    synchronized void modifyPrepared(ibv_qp_attr prepared, int mask, String target) {
        ensureOpen();
        NativeErrors.check(QueuePairVerbs.ibv_modify_qp(handle, prepared, mask), "ibv_modify_qp(QP 0x"
                + Integer.toHexString(qpn) + " to " + target + ", mask 0x" + Integer.toHexString(mask) + ")");
    }

    @Override
    public synchronized QpAttributes query(QpAttributes out) {
        ensureOpen();
        attr.zero();
        initAttr.zero();
        NativeErrors.check(QueuePairVerbs.ibv_query_qp(handle, attr, QpAttributeMapping.QUERY_MASK, initAttr),
                "ibv_query_qp");
        return QpAttributeMapping.read(attr, out);
    }

    @Override
    public synchronized void postSend(SendWorkRequest wr) {
        ensureOpen();
        sender.post(wr);
    }

    /** One batch, as {@code ibv_post_send} with a chained list; see {@link SendPoster#postList}. */
    @Override
    public synchronized int postSend(SendWorkRequest[] wrs, int count) {
        ensureOpen();
        if (count < 0 || count > wrs.length) {
            throw new VerbsException(Errno.EINVAL, "count " + count + " is outside the array of " + wrs.length);
        }
        return count == 0 ? 0 : sender.postList(wrs, count);
    }

    @Override
    public synchronized Set<DataInOrder> dataInOrder(WrOpcode opcode) {
        ensureOpen();
        return DataInOrder.fromMask(QueuePairVerbs.ibv_query_qp_data_in_order(handle, opcode.value(),
                IbverbsConstants.IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS));
    }

    @Override
    public synchronized void postRecv(ReceiveWorkRequest wr) {
        ensureOpen();
        if (receiver == null) {
            throw new VerbsException(Errno.EINVAL, "this QP receives from its SRQ; post there");
        }
        pd.regions.refuseFreed(wr.sges());
        int rc = QueuePairVerbs.ibv_post_recv(handle, receiver.fill(wr), receiver.rejected());
        if (rc != 0) {
            throw NativeErrors.failure(rc < 0 ? -rc : rc, "ibv_post_recv");
        }
    }

    /**
     * {@code ibv_bind_mw} on this queue pair's send queue (type 1 windows), with the window
     * and the region held open while libibverbs reads their pointers.
     *
     * @return the window's new rkey
     * @throws IllegalStateException  if this queue pair or the window is closed
     * @throws VerbsException {@code EINVAL} if the region is closed; else what {@code ibv_bind_mw} returns
     */
    synchronized int bindType1(IbverbsMw window, IbverbsMr region, long wrId, boolean signaled, long address,
                               long length, int accessMask) {
        ensureOpen();
        window.retain();
        try {
            if (!region.tryRetain()) {
                throw new VerbsException(Errno.EINVAL, "the bind names a closed region");
            }
            try {
                bind.wr_id(wrId).send_flags(signaled ? IbverbsConstants.IBV_SEND_SIGNALED : 0);
                bind.bind_info().mr(region.handle).addr(address).length(length).mw_access_flags(accessMask);
                NativeErrors.check(MemoryVerbs.ibv_bind_mw(handle, window.handle, bind), "ibv_bind_mw");
                return window.bound(region, length);
            } finally {
                region.release();
            }
        } finally {
            window.release();
        }
    }

    @Override
    protected void destroy() {
        NativeErrors.check(QueuePairVerbs.ibv_destroy_qp(handle), "ibv_destroy_qp");
        sender.free();
        if (receiver != null) {
            receiver.free();
        }
        attr.close();
        initAttr.close();
        bind.close();
    }
}
