package dev.verbs4j.ibverbs;

import dev.verbs4j.ibverbs.binding.CmVerbs;
import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.ibverbs.binding.ibv_port_attr;
import dev.verbs4j.ibverbs.binding.ibv_qp_attr;
import dev.verbs4j.ibverbs.binding.rdma_cm_id;

import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_LINK_LAYER_INFINIBAND;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QPS_ERR;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QPS_INIT;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QPS_RTR;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QPS_RTS;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_SQ_PSN;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_STATE;

/**
 * The state changes librdmacm makes on a queue pair it created, made here on the
 * application's own queue pair: each target state's attributes come from the kernel's
 * connection manager ({@code rdma_init_qp_attr}) and are applied with
 * {@code ibv_modify_qp}. The caller holds the id's monitor and passes the id's reusable
 * {@code attr}.
 */
final class CmQpTransitions {
    /**
     * The RoCE-only bits of an {@code rdma_init_qp_attr} mask (21 to 23), which an
     * InfiniBand port must not get: librdmacm clears them there too.
     */
    private static final int ROCE_ONLY_MASK_BITS = 0xe00000;

    private CmQpTransitions() {
    }

    /** RESET (or INIT) to INIT with the id's port, P_Key index and access flags. */
    static void toInit(rdma_cm_id id, IbverbsQp qp, ibv_qp_attr attr) {
        qp.modifyPrepared(attr, initAttributes(id, attr, IBV_QPS_INIT), "INIT");
    }

    /** A UD queue pair to RTS: INIT with the id's Q_Key, then RTR, then RTS with send PSN 0. */
    static void udToRts(rdma_cm_id id, IbverbsQp qp, ibv_qp_attr attr) {
        toInit(id, qp, attr);
        attr.qp_state(IBV_QPS_RTR);
        qp.modifyPrepared(attr, IBV_QP_STATE, "RTR");
        attr.qp_state(IBV_QPS_RTS).sq_psn(0);
        qp.modifyPrepared(attr, IBV_QP_STATE | IBV_QP_SQ_PSN, "RTS");
    }

    /**
     * INIT again (the kernel may have new attributes since), then RTR toward the peer.
     *
     * @param responderResources the RDMA READ and atomic depth to accept, or
     *                           {@link CmVerbs#RDMA_MAX_DEPTH} for what the kernel computed
     */
    static void toRtr(rdma_cm_id id, IbverbsQp qp, ibv_qp_attr attr, int responderResources) {
        toInit(id, qp, attr);
        int mask = initAttributes(id, attr, IBV_QPS_RTR);
        if (linkLayer(id) == IBV_LINK_LAYER_INFINIBAND) {
            mask &= ~ROCE_ONLY_MASK_BITS;
        }
        if (responderResources != CmVerbs.RDMA_MAX_DEPTH) {
            attr.max_dest_rd_atomic(responderResources);
        }
        qp.modifyPrepared(attr, mask, "RTR");
    }

    /**
     * RTR to RTS.
     *
     * @param initiatorDepth the RDMA READ and atomic depth to issue, or
     *                       {@link CmVerbs#RDMA_MAX_DEPTH} for what the kernel computed
     */
    static void toRts(rdma_cm_id id, IbverbsQp qp, ibv_qp_attr attr, int initiatorDepth) {
        int mask = initAttributes(id, attr, IBV_QPS_RTS);
        if (initiatorDepth != CmVerbs.RDMA_MAX_DEPTH) {
            attr.max_rd_atomic(initiatorDepth);
        }
        qp.modifyPrepared(attr, mask, "RTS");
    }

    /** To ERR, flushing posted work; a queue pair already closed is left alone. */
    static void toError(IbverbsQp qp, ibv_qp_attr attr) {
        if (!qp.tryRetain()) {
            return;
        }
        try {
            attr.zero();
            attr.qp_state(IBV_QPS_ERR);
            qp.modifyPrepared(attr, IBV_QP_STATE, "ERR");
        } finally {
            qp.release();
        }
    }

    /** {@code rdma_init_qp_attr} for {@code state} into {@code attr}: the mask. */
    private static int initAttributes(rdma_cm_id id, ibv_qp_attr attr, int state) {
        attr.zero();
        attr.qp_state(state);
        int mask = CmVerbs.initQpAttr(id, attr);
        if (mask < 0) {
            throw NativeErrors.failure(-mask, "rdma_init_qp_attr(" + stateName(state) + ")");
        }
        return mask;
    }

    private static int linkLayer(rdma_cm_id id) {
        try (ibv_port_attr port = new ibv_port_attr()) {
            return DeviceVerbs.ibv_query_port(id.verbs(), id.port_num(), port) == 0 ? port.link_layer() : 0;
        }
    }

    private static String stateName(int state) {
        return switch (state) {
            case IBV_QPS_INIT -> "INIT";
            case IBV_QPS_RTR -> "RTR";
            case IBV_QPS_RTS -> "RTS";
            default -> "state " + state;
        };
    }
}
