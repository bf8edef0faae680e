package dev.verbs4j.ibverbs;

import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.ibv_wc;

/** {@code struct ibv_wc} into {@link WorkCompletion}, field by field, allocating nothing. */
final class Completions {
    private static final WcStatus[] STATUSES = WcStatus.values();

    private Completions() {
    }

    /** Copies the completion at {@code wc}'s position into {@code out}. */
    static void fill(ibv_wc wc, WorkCompletion out) {
        int flags = wc.wc_flags();
        out.set(wc.wr_id(), status(wc.status()), opcode(wc.opcode()), wc.byte_len(), wc.qp_num(), wc.src_qp(), flags,
                        immOrInvalidatedRkey(flags, wc.imm_data()))
                .vendorError(wc.vendor_err())
                .pkeyIndex(wc.pkey_index());
    }

    /** The status of an {@code IBV_WC_*} number; numbers past verbs.h's list read as {@link WcStatus#GENERAL_ERR}. */
    static WcStatus status(int value) {
        return value >= 0 && value < STATUSES.length ? STATUSES[value] : WcStatus.GENERAL_ERR;
    }

    /**
     * The opcode of an {@code IBV_WC_*} number. libibverbs defines the opcode of successful
     * completions only; numbers the API does not name (tag matching, driver opcodes, or
     * whatever an error completion holds) read as {@link WcOpcode#RECV} when the receive
     * bit (128) is set, else {@link WcOpcode#SEND}.
     */
    static WcOpcode opcode(int value) {
        if ((value >= IbverbsConstants.IBV_WC_SEND && value <= IbverbsConstants.IBV_WC_ATOMIC_WRITE)
                || value == IbverbsConstants.IBV_WC_RECV || value == IbverbsConstants.IBV_WC_RECV_RDMA_WITH_IMM) {
            return WcOpcode.of(value);
        }
        return (value & IbverbsConstants.IBV_WC_RECV) != 0 ? WcOpcode.RECV : WcOpcode.SEND;
    }

    /**
     * {@code imm_data} and {@code invalidated_rkey} share storage: immediate data is
     * {@code __be32} and turned to host order, an invalidated rkey is already host order.
     */
    static int immOrInvalidatedRkey(int wcFlags, int raw) {
        return (wcFlags & IbverbsConstants.IBV_WC_WITH_IMM) != 0 ? NetworkOrder.toHost32(raw) : raw;
    }
}
