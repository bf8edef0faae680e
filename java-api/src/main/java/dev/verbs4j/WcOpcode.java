package dev.verbs4j;

/** Operation a work completion reports ({@code enum ibv_wc_opcode}). */
public enum WcOpcode {
    /**
     * {@code IBV_WC_SEND}: a SEND (with or without immediate data or invalidate) completed at the
     * sender.
     */
    SEND(0),

    /**
     * {@code IBV_WC_RDMA_WRITE}: an RDMA WRITE (with or without immediate data) completed at the
     * requester.
     */
    RDMA_WRITE(1),

    /** {@code IBV_WC_RDMA_READ}: an RDMA READ completed; the data is in the scatter list. */
    RDMA_READ(2),

    /**
     * {@code IBV_WC_COMP_SWAP}: a compare-and-swap completed; the old value is in the first scatter
     * entry.
     */
    COMP_SWAP(3),

    /** {@code IBV_WC_FETCH_ADD}: a fetch-and-add completed; the old value is in the first scatter entry. */
    FETCH_ADD(4),

    /** {@code IBV_WC_BIND_MW}: a memory window bind completed. */
    BIND_MW(5),

    /** {@code IBV_WC_LOCAL_INV}: a local invalidate completed. */
    LOCAL_INV(6),

    /**
     * {@code IBV_WC_TSO}: a TCP segmentation offload send completed (raw packet queue pairs; never
     * reported here).
     */
    TSO(7),

    /** RDMA FLUSH completed at the requester. */
    FLUSH(8),

    /** RDMA ATOMIC WRITE completed at the requester. */
    ATOMIC_WRITE(9),

    /** A fast-register work request; libibverbs has none, the number is the kernel's {@code IB_WC_REG_MR}. */
    REG_MR(10),

    /** A receive consumed by a SEND; {@code opcode & 128} tells receives apart, as in libibverbs. */
    RECV(128),

    /** A receive consumed by an RDMA WRITE with immediate data. */
    RECV_RDMA_WITH_IMM(129);


    private static final WcOpcode[] SMALL = {SEND, RDMA_WRITE, RDMA_READ, COMP_SWAP, FETCH_ADD, BIND_MW, LOCAL_INV, TSO,
        FLUSH, ATOMIC_WRITE, REG_MR};

    private final int value;

    WcOpcode(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_WC_*} number.
     *
     * @return the number {@code ibv_wc.opcode} holds
     */
    public int value() {
        return value;
    }

    /**
     * Whether this completion came from the receive queue.
     *
     * @return true for {@link #RECV} and {@link #RECV_RDMA_WITH_IMM}
     */
    public boolean isReceive() {
        return (value & 128) != 0;
    }

    /**
     * The opcode with the given number.
     *
     * @param value an {@code ibv_wc.opcode} number
     * @return the opcode
     * @throws IllegalArgumentException for a number this enum does not name
     */
    public static WcOpcode of(int value) {
        if (value >= 0 && value < SMALL.length) {
            return SMALL[value];
        }
        if (value == 128) {
            return RECV;
        }
        if (value == 129) {
            return RECV_RDMA_WITH_IMM;
        }
        throw new IllegalArgumentException("unknown completion opcode " + value);
    }
}
