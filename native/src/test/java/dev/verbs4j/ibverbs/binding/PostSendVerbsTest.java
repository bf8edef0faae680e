package dev.verbs4j.ibverbs.binding;

import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_ACCESS_REMOTE_READ;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_FLUSH_MR;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_FLUSH_PERSISTENT;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_SEND_FENCE;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_SEND_SIGNALED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ibv_wr_* calls reach the provider's function pointers with every
 * argument intact, including unsigned 32/64-bit values with the top bit
 * set. The provider is the recording fake of verbs4j_fake_provider.h.
 */
class PostSendVerbsTest {

    private static final int RKEY = 0xfedcba98;
    private static final long REMOTE = 0x8000_7f00_0000_1000L;

    private ibv_qp_ex qp;

    @BeforeEach
    void createFakeQp() {
        qp = FakeProvider.newQpEx();
        qp.wr_id(0xffff_0000_0000_0001L).wr_flags(IBV_SEND_SIGNALED);
    }

    @AfterEach
    void deleteFakeQp() {
        FakeProvider.deleteQpEx(qp);
    }

    @Test
    void wrIdAndFlagsAreSeenByTheProvider() {
        qp.wr_id(7).wr_flags(IBV_SEND_SIGNALED | IBV_SEND_FENCE);
        PostSendVerbs.ibv_wr_send(qp);
        assertEquals("send wr_id=7 flags=3", FakeProvider.lastCall());
    }

    @Test
    void batchCallsReachTheProvider() {
        PostSendVerbs.ibv_wr_start(qp);
        assertEquals("start wr_id=ffff000000000001 flags=2", FakeProvider.lastCall());
        FakeProvider.setNextResult(Errno.ENOMEM);
        assertEquals(Errno.ENOMEM, PostSendVerbs.ibv_wr_complete(qp));
        assertEquals("complete wr_id=ffff000000000001 flags=2", FakeProvider.lastCall());
        PostSendVerbs.ibv_wr_abort(qp);
        assertEquals("abort wr_id=ffff000000000001 flags=2", FakeProvider.lastCall());
    }

    @Test
    void sendVariantsPassImmediateAndInvalidateKeys() {
        PostSendVerbs.ibv_wr_send_imm(qp, 0x80000001);
        assertEquals("send_imm wr_id=ffff000000000001 flags=2 imm=80000001", FakeProvider.lastCall());
        PostSendVerbs.ibv_wr_send_inv(qp, RKEY);
        assertEquals("send_inv wr_id=ffff000000000001 flags=2 rkey=fedcba98", FakeProvider.lastCall());
        PostSendVerbs.ibv_wr_local_inv(qp, RKEY);
        assertEquals("local_inv wr_id=ffff000000000001 flags=2 rkey=fedcba98", FakeProvider.lastCall());
    }

    @Test
    void rdmaOperationsPassKeyAndRemoteAddress() {
        PostSendVerbs.ibv_wr_rdma_write(qp, RKEY, REMOTE);
        assertEquals("rdma_write wr_id=ffff000000000001 flags=2 rkey=fedcba98 addr=80007f0000001000", FakeProvider.lastCall());
        PostSendVerbs.ibv_wr_rdma_write_imm(qp, RKEY, REMOTE, 0xcafe);
        assertEquals("rdma_write_imm wr_id=ffff000000000001 flags=2 rkey=fedcba98 addr=80007f0000001000 imm=cafe",
                FakeProvider.lastCall());
        PostSendVerbs.ibv_wr_rdma_read(qp, RKEY, REMOTE);
        assertEquals("rdma_read wr_id=ffff000000000001 flags=2 rkey=fedcba98 addr=80007f0000001000", FakeProvider.lastCall());
    }

    @Test
    void atomicsPassTheirOperands() {
        PostSendVerbs.ibv_wr_atomic_cmp_swp(qp, RKEY, REMOTE, -2L, Long.MIN_VALUE);
        assertEquals("cmp_swp wr_id=ffff000000000001 flags=2 rkey=fedcba98 addr=80007f0000001000"
                + " compare=fffffffffffffffe swap=8000000000000000", FakeProvider.lastCall());
        PostSendVerbs.ibv_wr_atomic_fetch_add(qp, RKEY, REMOTE, 1);
        assertEquals("fetch_add wr_id=ffff000000000001 flags=2 rkey=fedcba98 addr=80007f0000001000 add=1",
                FakeProvider.lastCall());
    }

    @Test
    void atomicWritePassesTheEightByteValueByAddress() {
        try (LongPointer value = new LongPointer(1)) {
            value.put(0x0123_4567_89ab_cdefL);
            PostSendVerbs.ibv_wr_atomic_write(qp, RKEY, REMOTE, value);
        }
        assertEquals("atomic_write wr_id=ffff000000000001 flags=2 rkey=fedcba98 addr=80007f0000001000 value=123456789abcdef",
                FakeProvider.lastCall());
    }

    @Test
    void flushPassesLengthPlacementAndSelectivity() {
        PostSendVerbs.ibv_wr_flush(qp, RKEY, REMOTE, 0x1_0000_0000L, IBV_FLUSH_PERSISTENT, IBV_FLUSH_MR);
        assertEquals("flush wr_id=ffff000000000001 flags=2 rkey=fedcba98 addr=80007f0000001000 len=100000000 type=2 level=1",
                FakeProvider.lastCall());
    }

    @Test
    void bindMwPassesWindowKeyAndBindInfo() {
        try (ibv_mw_bind_info info = new ibv_mw_bind_info()) {
            info.addr(REMOTE).length(0x8000_0000_0000_0000L).mw_access_flags(IBV_ACCESS_REMOTE_READ);
            PostSendVerbs.ibv_wr_bind_mw(qp, null, RKEY, info);
        }
        assertEquals("bind_mw wr_id=ffff000000000001 flags=2 mw=null rkey=fedcba98 addr=80007f0000001000"
                + " length=8000000000000000 access=4", FakeProvider.lastCall());
    }

    @Test
    void dataSegmentsReachTheProvider() {
        PostSendVerbs.ibv_wr_set_sge(qp, 0x80000000, REMOTE, 0xffffffff);
        assertEquals("set_sge wr_id=ffff000000000001 flags=2 lkey=80000000 addr=80007f0000001000 length=ffffffff",
                FakeProvider.lastCall());
        try (ibv_sge list = new ibv_sge(3)) {
            list.getPointer(2).addr(REMOTE).length(512).lkey(0x77);
            PostSendVerbs.ibv_wr_set_sge_list(qp, 3, list);
        }
        assertEquals("set_sge_list wr_id=ffff000000000001 flags=2 count=3 last_addr=80007f0000001000 last_length=200"
                + " last_lkey=77", FakeProvider.lastCall());
    }

    @Test
    void inlineDataIsReadFromTheGivenBuffers() {
        try (BytePointer text = new BytePointer("inline payload", StandardCharsets.US_ASCII)) {
            PostSendVerbs.ibv_wr_set_inline_data(qp, text, 14);
        }
        assertEquals("set_inline_data wr_id=ffff000000000001 flags=2 text=inline payload", FakeProvider.lastCall());
        try (ibv_data_buf buffers = new ibv_data_buf(2)) {
            buffers.getPointer(1).length(33);
            PostSendVerbs.ibv_wr_set_inline_data_list(qp, 2, buffers);
        }
        assertEquals("set_inline_data_list wr_id=ffff000000000001 flags=2 count=2 last_length=33", FakeProvider.lastCall());
    }

    @Test
    void udAddressPassesQpnAndQkey() {
        PostSendVerbs.ibv_wr_set_ud_addr(qp, null, 0xffffff, 0x80010000);
        assertEquals("set_ud_addr wr_id=ffff000000000001 flags=2 ah=null qpn=ffffff qkey=80010000", FakeProvider.lastCall());
    }
}
