package dev.verbs4j.ibverbs.binding;

import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_ATOMIC_WRITE;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_FLUSH;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_RECV;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_RECV_RDMA_WITH_IMM;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_REM_ACCESS_ERR;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_SUCCESS;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_WITH_IMM;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_WITH_INV;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_WR_FLUSH_ERR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Test;

/** Polling and notification through a fake provider (verbs4j_fake_provider.h). */
class CompletionVerbsTest {

    @Test
    void pollCqFillsTheCallersArrayAndReturnsTheCount() {
        Pointer device = FakeProvider.newDevice();
        try (ibv_wc completions = new ibv_wc(8)) {
            FakeProvider.setNextResult(2);
            assertEquals(2, CompletionVerbs.ibv_poll_cq(FakeProvider.cqOf(device), 8, completions));
            assertEquals("poll_cq cq=fake num_entries=8", FakeProvider.lastCall());

            ibv_wc first = completions.getPointer(0);
            assertEquals(0x8000_0000_0000_0001L, first.wr_id());
            assertEquals(IBV_WC_SUCCESS, first.status());
            assertEquals(IBV_WC_RECV_RDMA_WITH_IMM, first.opcode());
            assertEquals(IBV_WC_RECV, first.opcode() & IBV_WC_RECV);
            assertEquals(100, first.byte_len());
            assertEquals(0xdeadbeef, first.imm_data());
            assertEquals(0xdeadbeef, first.invalidated_rkey(), "same storage as imm_data");
            assertEquals(0xabcdef, first.qp_num());
            assertEquals(IBV_WC_WITH_IMM, first.wc_flags());
            assertEquals(0xff, first.sl(), "uint8_t reads unsigned");

            ibv_wc second = completions.getPointer(1);
            assertEquals(IBV_WC_REM_ACCESS_ERR, second.status());
            assertEquals(IBV_WC_FLUSH, second.opcode());
            assertEquals(200, second.byte_len());
        } finally {
            FakeProvider.deleteDevice(device);
        }
    }

    @Test
    void pollCqStartsAtTheArraysPosition() {
        Pointer device = FakeProvider.newDevice();
        try (ibv_wc completions = new ibv_wc(4)) {
            FakeProvider.setNextResult(1);
            assertEquals(1, CompletionVerbs.ibv_poll_cq(FakeProvider.cqOf(device), 3, completions.position(1)));
            assertEquals(0x8000_0000_0000_0001L, completions.getPointer(0).wr_id(), "getPointer counts from the position");
            completions.position(0);
            assertEquals(0L, completions.getPointer(0).wr_id(), "element 0 untouched");
            assertEquals(0x8000_0000_0000_0001L, completions.getPointer(1).wr_id());
        } finally {
            FakeProvider.deleteDevice(device);
        }
    }

    @Test
    void reqNotifyPassesSolicitedOnlyAndReturnsTheProviderResult() {
        Pointer device = FakeProvider.newDevice();
        try {
            FakeProvider.setNextResult(Errno.EINVAL);
            assertEquals(Errno.EINVAL, CompletionVerbs.ibv_req_notify_cq(FakeProvider.cqOf(device), 1));
            assertEquals("req_notify_cq solicited_only=1", FakeProvider.lastCall());
        } finally {
            FakeProvider.deleteDevice(device);
        }
    }

    @Test
    void cqExToCqIsTheSameObject() {
        ibv_cq_ex extended = FakeProvider.newCqEx();
        try {
            assertEquals(extended.address(), CompletionVerbs.ibv_cq_ex_to_cq(extended).address());
        } finally {
            FakeProvider.deleteCqEx(extended);
        }
    }

    @Test
    void extendedPollWalksCompletionsAndReadsTheirFields() {
        ibv_cq_ex cq = FakeProvider.newCqEx();
        try (ibv_poll_cq_attr attr = new ibv_poll_cq_attr()) {
            FakeProvider.setNextResult(2);
            assertEquals(0, ExtendedCompletionVerbs.ibv_start_poll(cq, attr));
            assertEquals(0x1001L, cq.wr_id());
            assertEquals(IBV_WC_SUCCESS, cq.status());
            assertEquals(IBV_WC_ATOMIC_WRITE, ExtendedCompletionVerbs.ibv_wc_read_opcode(cq));
            assertEquals(0xfffffff1, ExtendedCompletionVerbs.ibv_wc_read_vendor_err(cq));
            assertEquals(0x80000001, ExtendedCompletionVerbs.ibv_wc_read_byte_len(cq));
            assertEquals(0xfeedf00d, ExtendedCompletionVerbs.ibv_wc_read_imm_data(cq));
            assertEquals(0xfeedf00d, ExtendedCompletionVerbs.ibv_wc_read_invalidated_rkey(cq));
            assertEquals(0x123456, ExtendedCompletionVerbs.ibv_wc_read_qp_num(cq));
            assertEquals(0x654321, ExtendedCompletionVerbs.ibv_wc_read_src_qp(cq));
            assertEquals(IBV_WC_WITH_INV, ExtendedCompletionVerbs.ibv_wc_read_wc_flags(cq));
            assertEquals(0xfffe, ExtendedCompletionVerbs.ibv_wc_read_slid(cq));
            assertEquals(0xf0, ExtendedCompletionVerbs.ibv_wc_read_sl(cq));
            assertEquals(0x81, ExtendedCompletionVerbs.ibv_wc_read_dlid_path_bits(cq));
            assertEquals(0xfedcba9876543210L, ExtendedCompletionVerbs.ibv_wc_read_completion_ts(cq));
            assertEquals(0x8000000000000001L, ExtendedCompletionVerbs.ibv_wc_read_completion_wallclock_ns(cq));

            assertEquals(0, ExtendedCompletionVerbs.ibv_next_poll(cq));
            assertEquals(0x1002L, cq.wr_id());
            assertEquals(IBV_WC_WR_FLUSH_ERR, cq.status());
            assertEquals(Errno.ENOENT, ExtendedCompletionVerbs.ibv_next_poll(cq));
            ExtendedCompletionVerbs.ibv_end_poll(cq);
            assertEquals("end_poll after=2", FakeProvider.lastCall());
        } finally {
            FakeProvider.deleteCqEx(cq);
        }
    }

    @Test
    void extendedPollOnAnEmptyCqReturnsEnoent() {
        ibv_cq_ex cq = FakeProvider.newCqEx();
        try (ibv_poll_cq_attr attr = new ibv_poll_cq_attr()) {
            FakeProvider.setNextResult(0);
            assertEquals(Errno.ENOENT, ExtendedCompletionVerbs.ibv_start_poll(cq, attr));
        } finally {
            FakeProvider.deleteCqEx(cq);
        }
    }

    @Test
    void statusTextComesFromLibibverbs() {
        assertEquals("success", CompletionVerbs.ibv_wc_status_str(IBV_WC_SUCCESS));
        assertEquals("remote access error", CompletionVerbs.ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR));
        assertEquals("Work Request Flushed Error", CompletionVerbs.ibv_wc_status_str(IBV_WC_WR_FLUSH_ERR));
    }

    @Test
    void getCqEventOnABadDescriptorFailsWithCapturedErrno() {
        // A channel whose fd is -1: the read(2) inside libibverbs fails with EBADF.
        try (BytePointer memory = new BytePointer(HeaderValues.sizeOf("ibv_comp_channel"))) {
            memory.zero();
            memory.putInt(HeaderValues.offsetOf("ibv_comp_channel.fd"), -1);
            ibv_comp_channel channel = new ibv_comp_channel(memory);
            assertEquals(-1, channel.fd());
            ibv_cq cq = new ibv_cq((Pointer) null);
            Pointer context = new Pointer((Pointer) null);
            assertEquals(-1, CompletionVerbs.ibv_get_cq_event(channel, cq, context));
            assertEquals(PosixForTests.EBADF(), Errno.lastErrno());
            assertTrue(cq.isNull(), "no CQ was returned");
        }
    }
}
