package dev.verbs4j.ibverbs.binding;

import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_ACCESS_REMOTE_WRITE;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_ADVISE_MR_ADVICE_PREFETCH;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_ADVISE_MR_FLAG_FLUSH;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_MW_TYPE_1;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_MW_TYPE_2;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_SEND_SIGNALED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Memory verbs that need no device, or only a fake one (see verbs4j_fake_provider.h). */
class MemoryVerbsTest {

    private Pointer device;

    @BeforeEach
    void createFakeDevice() {
        device = FakeProvider.newDevice();
        FakeProvider.clearLastCall();
        FakeProvider.setNextResult(0);
    }

    @AfterEach
    void deleteFakeDevice() {
        FakeProvider.deleteDevice(device);
    }

    @Test
    void incRkeyStepsOnlyTheLowByte() {
        assertEquals(0x12345601, MemoryVerbs.ibv_inc_rkey(0x12345600));
        assertEquals(0x12345600, MemoryVerbs.ibv_inc_rkey(0x123456ff), "the key tag wraps within its byte");
        assertEquals(0xffffff00, MemoryVerbs.ibv_inc_rkey(0xffffffff), "all 32 bits survive the unsigned round trip");
    }

    @Test
    void allocMwOnAProviderWithoutWindowsFailsWithEopnotsupp() {
        assertNull(MemoryVerbs.ibv_alloc_mw(FakeProvider.pdOf(device), IBV_MW_TYPE_2));
        assertEquals(Errno.EOPNOTSUPP, Errno.lastErrno(), "errno set by the verbs.h inline is captured");
    }

    @Test
    void bindMwPassesTheBindToTheProvider() {
        try (ibv_mw_bind bind = new ibv_mw_bind()) {
            bind.wr_id(0x8000_0000_0000_0042L).send_flags(IBV_SEND_SIGNALED);
            bind.bind_info().mr(null).addr(0).length(0).mw_access_flags(IBV_ACCESS_REMOTE_WRITE);
            FakeProvider.setNextResult(0);
            ibv_mw mw = FakeProvider.mwOf(device);
            assertEquals(IBV_MW_TYPE_1, mw.type());
            assertEquals(0, MemoryVerbs.ibv_bind_mw(FakeProvider.qpOf(device), mw, bind));
            assertEquals("bind_mw wr_id=8000000000000042 send_flags=2 length=0 access=2", FakeProvider.lastCall());
        }
    }

    @Test
    void bindMwWithRangeButNoMrIsRejectedBeforeTheProvider() {
        try (ibv_mw_bind bind = new ibv_mw_bind()) {
            bind.bind_info().addr(0x1000).length(64);
            assertEquals(Errno.EINVAL, MemoryVerbs.ibv_bind_mw(FakeProvider.qpOf(device), FakeProvider.mwOf(device), bind));
            assertEquals("", FakeProvider.lastCall());
        }
    }

    @Test
    void adviseMrWithoutProviderSupportReturnsEopnotsupp() {
        try (ibv_sge range = new ibv_sge()) {
            range.addr(0x1000).length(4096).lkey(1);
            assertEquals(Errno.EOPNOTSUPP, MemoryVerbs.ibv_advise_mr(FakeProvider.pdOf(device),
                    IBV_ADVISE_MR_ADVICE_PREFETCH, IBV_ADVISE_MR_FLAG_FLUSH, range, 1));
        }
    }
}
