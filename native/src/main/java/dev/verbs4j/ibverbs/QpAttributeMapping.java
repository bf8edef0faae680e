package dev.verbs4j.ibverbs;

import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_ACCESS_FLAGS;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_AV;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_CAP;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_CUR_STATE;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_DEST_QPN;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_MAX_DEST_RD_ATOMIC;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_MAX_QP_RD_ATOMIC;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_MIN_RNR_TIMER;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_PATH_MTU;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_PKEY_INDEX;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_PORT;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_QKEY;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_RETRY_CNT;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_RNR_RETRY;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_RQ_PSN;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_SQ_PSN;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_STATE;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_TIMEOUT;

import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.Errno;
import dev.verbs4j.Gid;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpAttrMask;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.ibv_ah_attr;
import dev.verbs4j.ibverbs.binding.ibv_global_route;
import dev.verbs4j.ibverbs.binding.ibv_qp_attr;
import dev.verbs4j.ibverbs.binding.ibv_qp_cap;

/**
 * {@link QpAttributes} to and from {@code struct ibv_qp_attr} with its
 * {@code enum ibv_qp_attr_mask}. Only attributes whose mask bit is set are written; the
 * native mask is built bit by bit from the libibverbs constants.
 */
final class QpAttributeMapping {
    /** Every attribute {@link #read} fills in, asked of {@code ibv_query_qp}. */
    static final int QUERY_MASK = IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX
            | IBV_QP_PORT | IBV_QP_QKEY | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT
            | IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_SQ_PSN
            | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_CAP | IBV_QP_DEST_QPN;

    private static final int PSN_MASK = 0xffffff;
    private static final int FLOW_LABEL_MASK = 0xfffff;

    private QpAttributeMapping() {
    }

    /**
     * Writes the attributes set in {@code a} into {@code attr} (which the caller zeroed).
     *
     * @return the {@code ibv_qp_attr_mask} for {@code ibv_modify_qp}
     */
    static int write(QpAttributes a, ibv_qp_attr attr) {
        int mask = 0;
        if (a.has(QpAttrMask.STATE)) {
            attr.qp_state(a.state().value());
            mask |= IBV_QP_STATE;
        }
        if (a.has(QpAttrMask.CUR_STATE)) {
            attr.cur_qp_state(a.currentState().value());
            mask |= IBV_QP_CUR_STATE;
        }
        if (a.has(QpAttrMask.ACCESS_FLAGS)) {
            attr.qp_access_flags(a.accessMask());
            mask |= IBV_QP_ACCESS_FLAGS;
        }
        if (a.has(QpAttrMask.PKEY_INDEX)) {
            attr.pkey_index(a.pkeyIndex());
            mask |= IBV_QP_PKEY_INDEX;
        }
        if (a.has(QpAttrMask.PORT)) {
            attr.port_num(uint8("port", a.port()));
            mask |= IBV_QP_PORT;
        }
        if (a.has(QpAttrMask.QKEY)) {
            attr.qkey(a.qkey());
            mask |= IBV_QP_QKEY;
        }
        if (a.has(QpAttrMask.AV)) {
            writeAddressVector(a.av(), attr.ah_attr());
            mask |= IBV_QP_AV;
        }
        if (a.has(QpAttrMask.PATH_MTU)) {
            attr.path_mtu(a.pathMtu().value());
            mask |= IBV_QP_PATH_MTU;
        }
        if (a.has(QpAttrMask.TIMEOUT)) {
            attr.timeout(a.timeout());
            mask |= IBV_QP_TIMEOUT;
        }
        if (a.has(QpAttrMask.RETRY_CNT)) {
            attr.retry_cnt(a.retryCount());
            mask |= IBV_QP_RETRY_CNT;
        }
        if (a.has(QpAttrMask.RNR_RETRY)) {
            attr.rnr_retry(a.rnrRetry());
            mask |= IBV_QP_RNR_RETRY;
        }
        if (a.has(QpAttrMask.RQ_PSN)) {
            attr.rq_psn(a.rqPsn() & PSN_MASK);
            mask |= IBV_QP_RQ_PSN;
        }
        if (a.has(QpAttrMask.MAX_QP_RD_ATOMIC)) {
            attr.max_rd_atomic(a.maxRdAtomic());
            mask |= IBV_QP_MAX_QP_RD_ATOMIC;
        }
        if (a.has(QpAttrMask.MIN_RNR_TIMER)) {
            attr.min_rnr_timer(a.minRnrTimer());
            mask |= IBV_QP_MIN_RNR_TIMER;
        }
        if (a.has(QpAttrMask.SQ_PSN)) {
            attr.sq_psn(a.sqPsn() & PSN_MASK);
            mask |= IBV_QP_SQ_PSN;
        }
        if (a.has(QpAttrMask.MAX_DEST_RD_ATOMIC)) {
            attr.max_dest_rd_atomic(a.maxDestRdAtomic());
            mask |= IBV_QP_MAX_DEST_RD_ATOMIC;
        }
        if (a.has(QpAttrMask.CAP)) {
            ibv_qp_cap cap = attr.cap();
            cap.max_send_wr(a.maxSendWr()).max_recv_wr(a.maxRecvWr()).max_send_sge(a.maxSendSge())
                    .max_recv_sge(a.maxRecvSge()).max_inline_data(a.maxInlineData());
            mask |= IBV_QP_CAP;
        }
        if (a.has(QpAttrMask.DEST_QPN)) {
            attr.dest_qp_num(a.destQpn());
            mask |= IBV_QP_DEST_QPN;
        }
        return mask;
    }

    /**
     * An address vector with a global route header, which RoCE requires: {@code is_global}
     * 1, the destination GID, the source GID index, hop limit, traffic class and flow label.
     * The DLID stays 0 (RoCE has no LIDs) and the static rate 0 (port rate).
     */
    static void writeAddressVector(AddressHandleAttributes av, ibv_ah_attr target) {
        ibv_global_route grh = target.grh();
        DeviceMapping.writeGid(av.dgid(), grh.dgid());
        grh.sgid_index(uint8("source GID index", av.sgidIndex())).hop_limit(av.hopLimit()).traffic_class(av.trafficClass())
                .flow_label(av.flowLabel());
        target.is_global(1).port_num(uint8("port", av.port())).sl(uint8("service level", av.serviceLevel())).dlid(0).src_path_bits(0).static_rate(0);
    }

    /** A value for a {@code uint8_t} field; what the cast would wrap is {@code EINVAL}. */
    private static int uint8(String what, int value) {
        if (value < 0 || value > 0xff) {
            throw new VerbsException(Errno.EINVAL, what + " " + value + " does not fit libibverbs' 8 bits");
        }
        return value;
    }

    /**
     * Fills {@code out} with everything {@code ibv_query_qp} reported (each setter sets its
     * mask bit). The address vector is read only when it names a port, and the path MTU only
     * when it is a valid {@code IBV_MTU_*}: a QP in RESET reports zeros there.
     */
    static QpAttributes read(ibv_qp_attr attr, QpAttributes out) {
        out.clear();
        out.state(QpState.of(attr.qp_state()))
                .currentState(QpState.of(attr.cur_qp_state()))
                .accessMask(attr.qp_access_flags())
                .pkeyIndex(attr.pkey_index())
                .port(attr.port_num())
                .qkey(attr.qkey())
                .timeout(attr.timeout())
                .retryCount(attr.retry_cnt())
                .rnrRetry(attr.rnr_retry())
                .rqPsn(attr.rq_psn())
                .maxRdAtomic(attr.max_rd_atomic())
                .minRnrTimer(attr.min_rnr_timer())
                .sqPsn(attr.sq_psn())
                .maxDestRdAtomic(attr.max_dest_rd_atomic())
                .destQpn(attr.dest_qp_num());
        Mtu mtu = DeviceMapping.mtuOrNull(attr.path_mtu());
        if (mtu != null) {
            out.pathMtu(mtu);
        }
        AddressHandleAttributes av = readAddressVector(attr.ah_attr());
        if (av != null) {
            out.av(av);
        }
        ibv_qp_cap cap = attr.cap();
        out.capacity(cap.max_send_wr(), cap.max_recv_wr(), cap.max_send_sge(), cap.max_recv_sge(), cap.max_inline_data());
        return out;
    }

    /** The address vector, or null when it names no port (not set yet). */
    static AddressHandleAttributes readAddressVector(ibv_ah_attr attr) {
        if (attr.port_num() < 1) {
            return null;
        }
        ibv_global_route grh = attr.grh();
        Gid dgid = attr.is_global() != 0 ? DeviceMapping.gid(grh.dgid()) : Gid.ZERO;
        return new AddressHandleAttributes(dgid, grh.sgid_index(), attr.port_num(), grh.hop_limit(),
                grh.traffic_class(), grh.flow_label() & FLOW_LABEL_MASK, attr.sl());
    }
}
