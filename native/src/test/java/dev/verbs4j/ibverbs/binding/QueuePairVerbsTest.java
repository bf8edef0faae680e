package dev.verbs4j.ibverbs.binding;

import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QPT_RC;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_EX_WITH_FLUSH;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_INIT_ATTR_PD;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Receive posting and QP creation through a fake provider (verbs4j_fake_provider.h). */
class QueuePairVerbsTest {

    private Pointer device;

    @BeforeEach
    void createFakeDevice() {
        device = FakeProvider.newDevice();
        FakeProvider.clearLastCall();
    }

    @AfterEach
    void deleteFakeDevice() {
        FakeProvider.deleteDevice(device);
    }

    @Test
    void postRecvHandsTheChainToTheProvider() {
        try (ibv_sge sge = new ibv_sge(); ibv_recv_wr wrs = new ibv_recv_wr(2)) {
            sge.addr(0x1000).length(64).lkey(0x80000007);
            ibv_recv_wr first = wrs.getPointer(0);
            ibv_recv_wr second = wrs.getPointer(1);
            first.wr_id(0xf000_0000_0000_0001L).sg_list(sge).num_sge(1).next(second);
            second.wr_id(2).sg_list(sge).num_sge(1).next(null);
            ibv_recv_wr bad = new ibv_recv_wr((Pointer) null);

            FakeProvider.setNextResult(0);
            assertEquals(0, QueuePairVerbs.ibv_post_recv(FakeProvider.qpOf(device), first, bad));
            assertEquals("post_recv count=2 first_wr_id=f000000000000001 first_sge_lkey=80000007", FakeProvider.lastCall());
            assertTrue(bad.isNull(), "no bad WR on success");
        }
    }

    @Test
    void postRecvFailureReportsTheFirstWrNotPosted() {
        try (ibv_sge sge = new ibv_sge(); ibv_recv_wr wrs = new ibv_recv_wr(2)) {
            ibv_recv_wr first = wrs.getPointer(0);
            ibv_recv_wr second = wrs.getPointer(1);
            first.sg_list(sge).num_sge(1).next(second);
            second.sg_list(sge).num_sge(1);
            ibv_recv_wr bad = new ibv_recv_wr((Pointer) null);

            FakeProvider.setNextResult(Errno.ENOMEM);
            assertEquals(Errno.ENOMEM, QueuePairVerbs.ibv_post_recv(FakeProvider.qpOf(device), first, bad));
            assertEquals(second.address(), bad.address(), "bad_wr is written back into the Java object");
        }
    }

    @Test
    void postSrqRecvReportsTheBadWr() {
        try (ibv_sge sge = new ibv_sge(); ibv_recv_wr wr = new ibv_recv_wr()) {
            wr.wr_id(9).sg_list(sge).num_sge(1);
            ibv_recv_wr bad = new ibv_recv_wr((Pointer) null);
            FakeProvider.setNextResult(Errno.EINVAL);
            assertEquals(Errno.EINVAL, SharedReceiveQueueVerbs.ibv_post_srq_recv(FakeProvider.srqOf(device), wr, bad));
            assertEquals("post_srq_recv first_wr_id=9", FakeProvider.lastCall());
            assertEquals(wr.address(), bad.address());
        }
    }

    @Test
    void createQpExWithoutExtendedVerbsFailsWithEopnotsuppInErrno() {
        try (ibv_qp_init_attr_ex attr = new ibv_qp_init_attr_ex()) {
            attr.qp_type(IBV_QPT_RC).pd(FakeProvider.pdOf(device))
                    .comp_mask(IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
                    .send_ops_flags(IBV_QP_EX_WITH_FLUSH);
            attr.cap().max_send_wr(16).max_recv_wr(16).max_send_sge(1).max_recv_sge(1);
            assertNull(QueuePairVerbs.ibv_create_qp_ex(FakeProvider.contextOf(device), attr));
            assertEquals(Errno.EOPNOTSUPP, Errno.lastErrno());
        }
    }
}
