package dev.verbs4j;

/** Operation a work completion reports ({@code enum ibv_wc_opcode}). */
public enum WcOpcode {
    SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), BIND_MW(5), LOCAL_INV(6), TSO(7),
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

    /** The {@code IBV_WC_*} number. */
    public int value() {
        return value;
    }

    /** Whether this completion came from the receive queue. */
    public boolean isReceive() {
        return (value & 128) != 0;
    }

    /** The opcode with the given number. */
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
