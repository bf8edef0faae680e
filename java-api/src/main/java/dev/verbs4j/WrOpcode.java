package dev.verbs4j;

/**
 * Send work request operation ({@code enum ibv_wr_opcode}), with the
 * {@code IBV_QP_EX_WITH_*} bit that enables it at queue pair creation.
 */
public enum WrOpcode {
    RDMA_WRITE(0, 1),
    RDMA_WRITE_WITH_IMM(1, 1 << 1),
    SEND(2, 1 << 2),
    SEND_WITH_IMM(3, 1 << 3),
    RDMA_READ(4, 1 << 4),
    ATOMIC_CMP_AND_SWP(5, 1 << 5),
    ATOMIC_FETCH_AND_ADD(6, 1 << 6),
    LOCAL_INV(7, 1 << 7),
    BIND_MW(8, 1 << 8),
    SEND_WITH_INV(9, 1 << 9),
    /** RDMA FLUSH (IBTA 1.5 memory placement extensions), rdma-core 45+. */
    FLUSH(14, 1 << 11),
    /** RDMA ATOMIC WRITE (IBTA 1.5 memory placement extensions), rdma-core 44+. */
    ATOMIC_WRITE(15, 1 << 12),
    /**
     * Fast-register a memory region through the send queue. libibverbs has no
     * user-space form of it; the number is the kernel's {@code IB_WR_REG_MR}.
     */
    REG_MR(0x20, 0);

    private final int value;
    private final int sendOpsFlag;

    WrOpcode(int value, int sendOpsFlag) {
        this.value = value;
        this.sendOpsFlag = sendOpsFlag;
    }

    /** The {@code IBV_WR_*} number ({@code IB_WR_REG_MR} for {@link #REG_MR}). */
    public int value() {
        return value;
    }

    /** The {@code IBV_QP_EX_WITH_*} bit, or 0 where libibverbs has none. */
    public int sendOpsFlag() {
        return sendOpsFlag;
    }

    /** Whether libibverbs can post this operation from user space. */
    public boolean inLibibverbs() {
        return this != REG_MR;
    }

    /** Whether the operation reads or updates remote memory as a "read-like" request (uses responder resources). */
    public boolean usesResponderResources() {
        return this == RDMA_READ || this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD
                || this == FLUSH || this == ATOMIC_WRITE;
    }

    /** Whether the operation is executed locally, without a packet on the wire. */
    public boolean isLocal() {
        return this == LOCAL_INV || this == BIND_MW || this == REG_MR;
    }

    /** The completion opcode a successful request of this kind reports. */
    public WcOpcode completionOpcode() {
        return switch (this) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> WcOpcode.RDMA_WRITE;
            case SEND, SEND_WITH_IMM, SEND_WITH_INV -> WcOpcode.SEND;
            case RDMA_READ -> WcOpcode.RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> WcOpcode.COMP_SWAP;
            case ATOMIC_FETCH_AND_ADD -> WcOpcode.FETCH_ADD;
            case LOCAL_INV -> WcOpcode.LOCAL_INV;
            case BIND_MW -> WcOpcode.BIND_MW;
            case FLUSH -> WcOpcode.FLUSH;
            case ATOMIC_WRITE -> WcOpcode.ATOMIC_WRITE;
            case REG_MR -> WcOpcode.REG_MR;
        };
    }
}
