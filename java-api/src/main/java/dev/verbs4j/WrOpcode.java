package dev.verbs4j;

/**
 * Send work request operation ({@code enum ibv_wr_opcode}), with the
 * {@code IBV_QP_EX_WITH_*} bit that enables it at queue pair creation.
 */
public enum WrOpcode {
    /**
     * {@code IBV_WR_RDMA_WRITE}: writes the gather list into the peer's memory; the peer's receive
     * queue is not touched.
     */
    RDMA_WRITE(0, 1),

    /**
     * {@code IBV_WR_RDMA_WRITE_WITH_IMM}: an RDMA WRITE that also consumes one of the peer's receives
     * and reports the immediate data in its completion.
     */
    RDMA_WRITE_WITH_IMM(1, 1 << 1),

    /** {@code IBV_WR_SEND}: the gather list lands in the buffers of the peer's next receive. */
    SEND(2, 1 << 2),

    /**
     * {@code IBV_WR_SEND_WITH_IMM}: a SEND whose receive completion also carries 32 bits of immediate
     * data.
     */
    SEND_WITH_IMM(3, 1 << 3),

    /** {@code IBV_WR_RDMA_READ}: reads the peer's memory into the scatter list. */
    RDMA_READ(4, 1 << 4),

    /**
     * {@code IBV_WR_ATOMIC_CMP_AND_SWP}: 64-bit compare-and-swap on the peer's memory, returning the
     * old value.
     */
    ATOMIC_CMP_AND_SWP(5, 1 << 5),

    /**
     * {@code IBV_WR_ATOMIC_FETCH_AND_ADD}: 64-bit fetch-and-add on the peer's memory, returning the old
     * value.
     */
    ATOMIC_FETCH_AND_ADD(6, 1 << 6),

    /** {@code IBV_WR_LOCAL_INV}: invalidates a local key through the send queue. */
    LOCAL_INV(7, 1 << 7),

    /** {@code IBV_WR_BIND_MW}: binds a type 2 memory window through the send queue. */
    BIND_MW(8, 1 << 8),

    /** {@code IBV_WR_SEND_WITH_INV}: a SEND that also invalidates one of the peer's rkeys. */
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

    /**
     * The {@code IBV_WR_*} number ({@code IB_WR_REG_MR} for {@link #REG_MR}).
     *
     * @return the number {@code ibv_send_wr.opcode} holds
     */
    public int value() {
        return value;
    }

    /**
     * The {@code IBV_QP_EX_WITH_*} bit, or 0 where libibverbs has none.
     *
     * @return the single-bit mask for {@code ibv_qp_init_attr_ex.send_ops_flags}
     */
    public int sendOpsFlag() {
        return sendOpsFlag;
    }

    /**
     * Whether libibverbs can post this operation from user space.
     *
     * @return false only for {@link #REG_MR}
     */
    public boolean inLibibverbs() {
        return this != REG_MR;
    }

    /**
     * Whether the operation reads or updates remote memory as a "read-like" request (uses responder resources).
     * The peer holds such a request until it answers, within the responder resources
     * ({@code max_dest_rd_atomic}) it granted.
     *
     * @return true for READ, the atomics, FLUSH and ATOMIC WRITE
     */
    public boolean usesResponderResources() {
        return this == RDMA_READ || this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD
                || this == FLUSH || this == ATOMIC_WRITE;
    }

    /**
     * Whether the operation is executed locally, without a packet on the wire.
     *
     * @return true for LOCAL_INV, BIND_MW and REG_MR
     */
    public boolean isLocal() {
        return this == LOCAL_INV || this == BIND_MW || this == REG_MR;
    }

    /**
     * The completion opcode a successful request of this kind reports.
     *
     * @return the {@code ibv_wc.opcode} value
     */
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
