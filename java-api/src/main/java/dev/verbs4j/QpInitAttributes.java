package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a queue pair is created with ({@code struct ibv_qp_init_attr_ex}). The default
 * operation set is every operation the transport allows except FLUSH and ATOMIC WRITE,
 * which must be asked for explicitly, as {@code IBV_QP_EX_WITH_FLUSH} and
 * {@code IBV_QP_EX_WITH_ATOMIC_WRITE} must be in libibverbs, and fast registration
 * ({@link WrOpcode#REG_MR}), which libibverbs does not have.
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

    /** Attributes of a {@code type} queue pair whose sends and receives complete on {@code cq}. */
    public QpInitAttributes(QpType type, CompletionQueue cq) {
        this(type, cq, cq);
    }

    public QpInitAttributes(QpType type, CompletionQueue sendCq, CompletionQueue recvCq) {
        if (type == null || sendCq == null || recvCq == null) {
            throw new NullPointerException("type and completion queues are required");
        }
        this.type = type;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.operations = defaultOperations(type);
    }

    /** The operations a transport allows by default (IBTA 3.7.2 table of services). */
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

    public QpType type() {
        return type;
    }

    public CompletionQueue sendCq() {
        return sendCq;
    }

    public CompletionQueue recvCq() {
        return recvCq;
    }

    public SharedReceiveQueue srq() {
        return srq;
    }

    /** Receives come from this shared queue instead of the QP's own. */
    public QpInitAttributes srq(SharedReceiveQueue shared) {
        this.srq = shared;
        return this;
    }

    public int maxSendWr() {
        return maxSendWr;
    }

    public int maxRecvWr() {
        return maxRecvWr;
    }

    public int maxSendSge() {
        return maxSendSge;
    }

    public int maxRecvSge() {
        return maxRecvSge;
    }

    public int maxInlineData() {
        return maxInlineData;
    }

    /** Queue capacities ({@code struct ibv_qp_cap}). */
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

    public boolean signalAll() {
        return signalAll;
    }

    /** Whether every send request completes, signaled or not ({@code sq_sig_all}). */
    public QpInitAttributes signalAll(boolean on) {
        this.signalAll = on;
        return this;
    }

    /** The operations the QP accepts (a copy). */
    public Set<WrOpcode> operations() {
        return EnumSet.copyOf(operations);
    }

    /** Whether the QP accepts an operation. */
    public boolean allows(WrOpcode op) {
        return operations.contains(op);
    }

    /** Adds operations, e.g. {@link WrOpcode#FLUSH}, {@link WrOpcode#ATOMIC_WRITE} or {@link WrOpcode#REG_MR}. */
    public QpInitAttributes allow(WrOpcode... ops) {
        for (WrOpcode op : ops) {
            operations.add(op);
        }
        return this;
    }

    /** The {@code send_ops_flags} mask of the accepted operations (REG_MR has no bit). */
    public long sendOpsFlags() {
        long mask = 0;
        for (WrOpcode op : operations) {
            mask |= op.sendOpsFlag();
        }
        return mask;
    }
}
