package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.Errno;
import dev.verbs4j.Gid;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpAttrMask;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.ibv_ah_attr;
import dev.verbs4j.ibverbs.binding.ibv_qp_attr;

import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link QpAttributes} to {@code struct ibv_qp_attr} plus {@code ibv_qp_attr_mask}, and back. */
class QpAttributeMappingTest {
    private static final Gid PEER = Gid.parse("10.0.0.2");
    private static final AddressHandleAttributes PATH = new AddressHandleAttributes(PEER, 3, 1, 64, 0x28, 0xabcde, 5);

    private final ibv_qp_attr attr = new ibv_qp_attr();

    @AfterEach
    void free() {
        attr.close();
    }

    @Test
    void everyMaskBitIsTheLibibverbsBit() {
        Map<QpAttrMask, Integer> libibverbs = Map.ofEntries(
                Map.entry(QpAttrMask.STATE, IbverbsConstants.IBV_QP_STATE),
                Map.entry(QpAttrMask.CUR_STATE, IbverbsConstants.IBV_QP_CUR_STATE),
                Map.entry(QpAttrMask.EN_SQD_ASYNC_NOTIFY, IbverbsConstants.IBV_QP_EN_SQD_ASYNC_NOTIFY),
                Map.entry(QpAttrMask.ACCESS_FLAGS, IbverbsConstants.IBV_QP_ACCESS_FLAGS),
                Map.entry(QpAttrMask.PKEY_INDEX, IbverbsConstants.IBV_QP_PKEY_INDEX),
                Map.entry(QpAttrMask.PORT, IbverbsConstants.IBV_QP_PORT),
                Map.entry(QpAttrMask.QKEY, IbverbsConstants.IBV_QP_QKEY),
                Map.entry(QpAttrMask.AV, IbverbsConstants.IBV_QP_AV),
                Map.entry(QpAttrMask.PATH_MTU, IbverbsConstants.IBV_QP_PATH_MTU),
                Map.entry(QpAttrMask.TIMEOUT, IbverbsConstants.IBV_QP_TIMEOUT),
                Map.entry(QpAttrMask.RETRY_CNT, IbverbsConstants.IBV_QP_RETRY_CNT),
                Map.entry(QpAttrMask.RNR_RETRY, IbverbsConstants.IBV_QP_RNR_RETRY),
                Map.entry(QpAttrMask.RQ_PSN, IbverbsConstants.IBV_QP_RQ_PSN),
                Map.entry(QpAttrMask.MAX_QP_RD_ATOMIC, IbverbsConstants.IBV_QP_MAX_QP_RD_ATOMIC),
                Map.entry(QpAttrMask.ALT_PATH, IbverbsConstants.IBV_QP_ALT_PATH),
                Map.entry(QpAttrMask.MIN_RNR_TIMER, IbverbsConstants.IBV_QP_MIN_RNR_TIMER),
                Map.entry(QpAttrMask.SQ_PSN, IbverbsConstants.IBV_QP_SQ_PSN),
                Map.entry(QpAttrMask.MAX_DEST_RD_ATOMIC, IbverbsConstants.IBV_QP_MAX_DEST_RD_ATOMIC),
                Map.entry(QpAttrMask.PATH_MIG_STATE, IbverbsConstants.IBV_QP_PATH_MIG_STATE),
                Map.entry(QpAttrMask.CAP, IbverbsConstants.IBV_QP_CAP),
                Map.entry(QpAttrMask.DEST_QPN, IbverbsConstants.IBV_QP_DEST_QPN),
                Map.entry(QpAttrMask.RATE_LIMIT, IbverbsConstants.IBV_QP_RATE_LIMIT));
        assertEquals(QpAttrMask.values().length, libibverbs.size());
        libibverbs.forEach((bit, value) -> assertEquals((int) value, bit.value(), bit.name()));
    }

    @Test
    void eachSetterProducesExactlyItsNativeBit() {
        Map<Integer, QpAttributes> single = Map.ofEntries(
                Map.entry(IbverbsConstants.IBV_QP_STATE, new QpAttributes().state(QpState.INIT)),
                Map.entry(IbverbsConstants.IBV_QP_CUR_STATE, new QpAttributes().currentState(QpState.RTR)),
                Map.entry(IbverbsConstants.IBV_QP_ACCESS_FLAGS, new QpAttributes().accessMask(7)),
                Map.entry(IbverbsConstants.IBV_QP_PKEY_INDEX, new QpAttributes().pkeyIndex(1)),
                Map.entry(IbverbsConstants.IBV_QP_PORT, new QpAttributes().port(1)),
                Map.entry(IbverbsConstants.IBV_QP_QKEY, new QpAttributes().qkey(0x11111111)),
                Map.entry(IbverbsConstants.IBV_QP_AV, new QpAttributes().av(PATH)),
                Map.entry(IbverbsConstants.IBV_QP_PATH_MTU, new QpAttributes().pathMtu(Mtu.MTU_4096)),
                Map.entry(IbverbsConstants.IBV_QP_TIMEOUT, new QpAttributes().timeout(14)),
                Map.entry(IbverbsConstants.IBV_QP_RETRY_CNT, new QpAttributes().retryCount(7)),
                Map.entry(IbverbsConstants.IBV_QP_RNR_RETRY, new QpAttributes().rnrRetry(7)),
                Map.entry(IbverbsConstants.IBV_QP_RQ_PSN, new QpAttributes().rqPsn(1)),
                Map.entry(IbverbsConstants.IBV_QP_MAX_QP_RD_ATOMIC, new QpAttributes().maxRdAtomic(1)),
                Map.entry(IbverbsConstants.IBV_QP_MIN_RNR_TIMER, new QpAttributes().minRnrTimer(12)),
                Map.entry(IbverbsConstants.IBV_QP_SQ_PSN, new QpAttributes().sqPsn(1)),
                Map.entry(IbverbsConstants.IBV_QP_MAX_DEST_RD_ATOMIC, new QpAttributes().maxDestRdAtomic(1)),
                Map.entry(IbverbsConstants.IBV_QP_CAP, new QpAttributes().capacity(1, 1, 1, 1, 0)),
                Map.entry(IbverbsConstants.IBV_QP_DEST_QPN, new QpAttributes().destQpn(0x12)));
        single.forEach((bit, attributes) -> {
            attr.zero();
            assertEquals((int) bit, QpAttributeMapping.write(attributes, attr), "mask of " + Integer.toHexString(bit));
        });
    }

    @Test
    void resetToInitWritesStatePkeyPortAndAccess() {
        QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        int mask = QpAttributeMapping.write(init, attr);
        assertEquals(IbverbsConstants.IBV_QP_STATE | IbverbsConstants.IBV_QP_PKEY_INDEX | IbverbsConstants.IBV_QP_PORT
                | IbverbsConstants.IBV_QP_ACCESS_FLAGS, mask);
        assertEquals(IbverbsConstants.IBV_QPS_INIT, attr.qp_state());
        assertEquals(1, attr.port_num());
        assertEquals(IbverbsConstants.IBV_ACCESS_LOCAL_WRITE | IbverbsConstants.IBV_ACCESS_REMOTE_WRITE
                | IbverbsConstants.IBV_ACCESS_REMOTE_READ | IbverbsConstants.IBV_ACCESS_REMOTE_ATOMIC, attr.qp_access_flags());
    }

    @Test
    void initToRtrWritesAGlobalRouteForRoce() {
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).av(PATH).pathMtu(Mtu.MTU_1024).destQpn(0xabcdef)
                .rqPsn(0x1234567).maxDestRdAtomic(16).minRnrTimer(12);
        QpAttributeMapping.write(rtr, attr);
        ibv_ah_attr av = attr.ah_attr();
        assertEquals(1, av.is_global(), "RoCE addresses carry a GRH");
        assertEquals(PEER, DeviceMapping.gid(av.grh().dgid()));
        assertEquals((byte) 0xff, av.grh().dgid().raw(10), "IPv4-mapped GID, network order");
        assertEquals(3, av.grh().sgid_index());
        assertEquals(64, av.grh().hop_limit());
        assertEquals(0x28, av.grh().traffic_class());
        assertEquals(0xabcde, av.grh().flow_label());
        assertEquals(5, av.sl());
        assertEquals(1, av.port_num());
        assertEquals(0, av.dlid(), "no LIDs on RoCE");
        assertEquals(IbverbsConstants.IBV_MTU_1024, attr.path_mtu());
        assertEquals(0xabcdef, attr.dest_qp_num());
        assertEquals(0x234567, attr.rq_psn(), "PSNs are 24 bits");
        assertEquals(16, attr.max_dest_rd_atomic());
        assertEquals(12, attr.min_rnr_timer());
    }

    @Test
    void rtrToRtsWritesSendSideTimersAndPsn() {
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(0xffffff).timeout(14).retryCount(7).rnrRetry(7)
                .maxRdAtomic(16);
        int mask = QpAttributeMapping.write(rts, attr);
        assertEquals(IbverbsConstants.IBV_QP_STATE | IbverbsConstants.IBV_QP_SQ_PSN | IbverbsConstants.IBV_QP_TIMEOUT
                | IbverbsConstants.IBV_QP_RETRY_CNT | IbverbsConstants.IBV_QP_RNR_RETRY
                | IbverbsConstants.IBV_QP_MAX_QP_RD_ATOMIC, mask);
        assertEquals(0xffffff, attr.sq_psn());
        assertEquals(14, attr.timeout());
        assertEquals(7, attr.retry_cnt());
        assertEquals(7, attr.rnr_retry());
        assertEquals(16, attr.max_rd_atomic());
    }

    @Test
    void readReturnsWhatWriteStored() {
        QpAttributes written = new QpAttributes().state(QpState.RTS).currentState(QpState.RTR).accessMask(0x30f)
                .pkeyIndex(2).port(1).qkey(0x80010000).av(PATH).pathMtu(Mtu.MTU_2048).timeout(14).retryCount(6)
                .rnrRetry(5).rqPsn(0x111111).maxRdAtomic(4).minRnrTimer(12).sqPsn(0x222222).maxDestRdAtomic(8)
                .capacity(64, 32, 4, 2, 128).destQpn(0x345678);
        QpAttributeMapping.write(written, attr);
        QpAttributes read = QpAttributeMapping.read(attr, new QpAttributes());
        assertEquals(written.mask(), read.mask() & written.mask());
        assertEquals(QpState.RTS, read.state());
        assertEquals(QpState.RTR, read.currentState());
        assertEquals(0x30f, read.accessMask());
        assertEquals(2, read.pkeyIndex());
        assertEquals(1, read.port());
        assertEquals(0x80010000, read.qkey());
        assertEquals(PATH, read.av());
        assertEquals(Mtu.MTU_2048, read.pathMtu());
        assertEquals(14, read.timeout());
        assertEquals(6, read.retryCount());
        assertEquals(5, read.rnrRetry());
        assertEquals(0x111111, read.rqPsn());
        assertEquals(4, read.maxRdAtomic());
        assertEquals(12, read.minRnrTimer());
        assertEquals(0x222222, read.sqPsn());
        assertEquals(8, read.maxDestRdAtomic());
        assertEquals(64, read.maxSendWr());
        assertEquals(32, read.maxRecvWr());
        assertEquals(4, read.maxSendSge());
        assertEquals(2, read.maxRecvSge());
        assertEquals(128, read.maxInlineData());
        assertEquals(0x345678, read.destQpn());
    }

    @Test
    void valuesTheEightBitFieldsWouldWrapAreEinval() {
        AddressHandleAttributes farGid = new AddressHandleAttributes(PEER, 256, 1, 64, 0, 0, 0);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
                () -> QpAttributeMapping.write(new QpAttributes().av(farGid), attr)).error());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
                () -> QpAttributeMapping.write(new QpAttributes().port(256), attr)).error());
    }

    @Test
    void aResetQueuePairReportsNoPathAndNoMtu() {
        QpAttributes read = QpAttributeMapping.read(attr, new QpAttributes().timeout(3));
        assertEquals(QpState.RESET, read.state());
        assertFalse(read.has(QpAttrMask.AV), "a zero port names no path");
        assertFalse(read.has(QpAttrMask.PATH_MTU), "0 is no IBV_MTU_*");
        assertEquals(0, read.timeout(), "read starts from a cleared mask and overwrites");
        assertNull(QpAttributeMapping.readAddressVector(attr.ah_attr()));
    }
}
