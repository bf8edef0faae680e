package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a queue pair is created with ({@code struct ibv_qp_init_attr_ex}). The default
 * operation set is every operation the transport allows except FLUSH and ATOMIC WRITE,
 * which must be asked for explicitly, as {@code IBV_QP_EX_WITH_FLUSH} and
 * {@code IBV_QP_EX_WITH_ATOMIC_WRITE} must be in libibverbs, and fast registration
 * ({@link WrOpcode#REG_MR}), which libibverbs does not have.
 *
 * <p>A default is kept only where the device can do it: on a device that reports no atomics
 * ({@code atomic_cap} NONE) or no memory windows ({@code max_mw} 0), as siw does, the queue
 * pair is created without them, and posting one fails with {@code EINVAL} like any operation
 * the queue pair was not created for. An operation asked for with {@link #allow} is required:
 * a device that lacks it fails the creation with {@code EOPNOTSUPP}.
 */
public final class QpInitAttributes {
    private final QpType type;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private SharedReceiveQueue srq;
    private int maxSendWr = 64;
    private int maxRecvWr = 64;
    private int maxSendSge = 1;
    private int maxRecvSge = 1;
    private int maxInlineData;
    private boolean signalAll;
    private final EnumSet<WrOpcode> operations;
    private final EnumSet<WrOpcode> required = EnumSet.noneOf(WrOpcode.class);

    /**
     * Attributes of a {@code type} queue pair whose sends and receives complete on {@code cq}.
     *
     * @param type the transport
     * @param cq the completion queue of both the send and the receive queue
     * @throws NullPointerException if an argument is null
     */
    public QpInitAttributes(QpType type, CompletionQueue cq) {
        this(type, cq, cq);
    }

    /**
     * Attributes of a {@code type} queue pair whose sends complete on {@code sendCq} and receives on
     * {@code recvCq} ({@code send_cq}, {@code recv_cq}).
     *
     * @param type the transport
     * @param sendCq the completion queue of the send queue
     * @param recvCq the completion queue of the receive queue (or of the shared receive queue's receives)
     * @throws NullPointerException if an argument is null
     */
    public QpInitAttributes(QpType type, CompletionQueue sendCq, CompletionQueue recvCq) {
        if (type == null || sendCq == null || recvCq == null) {
            throw new NullPointerException("type and completion queues are required");
        }
        this.type = type;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.operations = defaultOperations(type);
    }

    /**
     * The operations a transport allows by default (IBTA 3.7.2 table of services).
     *
     * @param type the transport
     * @return a new set: for RC the sends, RDMA, atomics, local invalidate and window binds; for UC
     *         the same without READ and atomics; for UD the two sends
     */
    public static EnumSet<WrOpcode> defaultOperations(QpType type) {
        return switch (type) {
            case RC -> EnumSet.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.SEND_WITH_INV, WrOpcode.RDMA_WRITE,
                    WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.RDMA_READ, WrOpcode.ATOMIC_CMP_AND_SWP,
                    WrOpcode.ATOMIC_FETCH_AND_ADD, WrOpcode.LOCAL_INV, WrOpcode.BIND_MW);
            case UC -> EnumSet.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.SEND_WITH_INV, WrOpcode.RDMA_WRITE,
                    WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.LOCAL_INV, WrOpcode.BIND_MW);
            case UD -> EnumSet.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM);
        };
    }

    /**
     * The transport ({@code qp_type}).
     *
     * @return the type given at construction
     */
    public QpType type() {
        return type;
    }

    /**
     * The completion queue of the send queue ({@code send_cq}).
     *
     * @return the queue
     */
    public CompletionQueue sendCq() {
        return sendCq;
    }

    /**
     * The completion queue of the receive queue ({@code recv_cq}).
     *
     * @return the queue
     */
    public CompletionQueue recvCq() {
        return recvCq;
    }

    /**
     * The shared receive queue ({@code srq}), if any.
     *
     * @return the queue, or null when the queue pair has its own receive queue
     */
    public SharedReceiveQueue srq() {
        return srq;
    }

    /**
     * Receives come from this shared queue instead of the QP's own.
     * It must belong to the same protection domain as the queue pair.
     *
     * @param shared the shared receive queue, or null for an own receive queue
     * @return these attributes
     */
    public QpInitAttributes srq(SharedReceiveQueue shared) {
        this.srq = shared;
        return this;
    }

    /**
     * The send queue's requested depth ({@code cap.max_send_wr}).
     *
     * @return the depth; 64 unless set
     */
    public int maxSendWr() {
        return maxSendWr;
    }

    /**
     * The receive queue's requested depth ({@code cap.max_recv_wr}).
     *
     * @return the depth; 64 unless set
     */
    public int maxRecvWr() {
        return maxRecvWr;
    }

    /**
     * The gather entries per send request ({@code cap.max_send_sge}).
     *
     * @return the count; 1 unless set
     */
    public int maxSendSge() {
        return maxSendSge;
    }

    /**
     * The scatter entries per receive request ({@code cap.max_recv_sge}).
     *
     * @return the count; 1 unless set
     */
    public int maxRecvSge() {
        return maxRecvSge;
    }

    /**
     * The inline data size requested ({@code cap.max_inline_data}).
     *
     * @return bytes; 0 unless set
     */
    public int maxInlineData() {
        return maxInlineData;
    }

    /**
     * Queue capacities ({@code struct ibv_qp_cap}).
     * A creation asking for more than the device's limits fails with {@code EINVAL}; the device may
     * grant more than asked.
     *
     * @param maxSendWr send queue depth, at least 1
     * @param maxRecvWr receive queue depth, 0 or more (0 with a shared receive queue)
     * @param maxSendSge gather entries per send, at least 1
     * @param maxRecvSge scatter entries per receive, 0 or more
     * @param maxInlineData inline bytes per send, 0 or more
     * @return these attributes
     * @throws IllegalArgumentException if a value is below its minimum
     */
    public QpInitAttributes capacity(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
        if (maxSendWr < 1 || maxRecvWr < 0 || maxSendSge < 1 || maxRecvSge < 0 || maxInlineData < 0) {
            throw new IllegalArgumentException("queue capacities must be positive");
        }
        this.maxSendWr = maxSendWr;
        this.maxRecvWr = maxRecvWr;
        this.maxSendSge = maxSendSge;
        this.maxRecvSge = maxRecvSge;
        this.maxInlineData = maxInlineData;
        return this;
    }

    /**
     * Whether every send request completes ({@code sq_sig_all}).
     *
     * @return false unless set
     */
    public boolean signalAll() {
        return signalAll;
    }

    /**
     * Whether every send request completes, signaled or not ({@code sq_sig_all}).
     * When false, only requests with {@link SendFlag#SIGNALED} produce a completion on success.
     *
     * @param on true to signal every request
     * @return these attributes
     */
    public QpInitAttributes signalAll(boolean on) {
        this.signalAll = on;
        return this;
    }

    /**
     * The operations the QP accepts (a copy).
     *
     * @return a new set; changing it changes nothing here
     */
    public Set<WrOpcode> operations() {
        return EnumSet.copyOf(operations);
    }

    /**
     * Whether the QP accepts an operation.
     * A post of any other operation fails with {@code EINVAL}.
     *
     * @param op the operation
     * @return true if it is among {@link #operations()}
     */
    public boolean allows(WrOpcode op) {
        return operations.contains(op);
    }

    /**
     * Adds operations, e.g. {@link WrOpcode#FLUSH}, {@link WrOpcode#ATOMIC_WRITE} or {@link WrOpcode#REG_MR}.
     *
     * @param ops operations to add; a device that lacks one fails the creation, as libibverbs'
     *        {@code ibv_create_qp_ex} does
     * @return these attributes
     */
    public QpInitAttributes allow(WrOpcode... ops) {
        for (WrOpcode op : ops) {
            operations.add(op);
            required.add(op);
        }
        return this;
    }

    /**
     * The operations asked for with {@link #allow} (a copy): the device must do them, where the
     * others of {@link #operations()} are transport defaults it may lack.
     *
     * @return a new set; changing it changes nothing here
     */
    public Set<WrOpcode> requiredOperations() {
        return required.isEmpty() ? EnumSet.noneOf(WrOpcode.class) : EnumSet.copyOf(required);
    }

    /**
     * The {@code send_ops_flags} mask of the accepted operations (REG_MR has no bit).
     *
     * @return an OR of {@code IBV_QP_EX_WITH_*} bits, as {@code ibv_qp_init_attr_ex.send_ops_flags} takes
     */
    public long sendOpsFlags() {
        long mask = 0;
        for (WrOpcode op : operations) {
            mask |= op.sendOpsFlag();
        }
        return mask;
    }
}
