package dev.verbs4j.conformance.memwindow;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fast registration (IB_WR_REG_MR, the memory management extensions): a region allocated
 * without memory is bound to pages by a REG_MR work request under a new key, and
 * revoked by LOCAL_INV or the peer's SEND_WITH_INV. libibverbs has no user-space form of it, so the cases skip
 * wherever {@code allocateFastRegMr} answers EOPNOTSUPP.
 */
@ConformanceSuite
class FastRegisterTest {
    private static final int PAGES = 4;
    private static final int PAGE_SHIFT = 12;
    private static final long LENGTH = (long) PAGES << PAGE_SHIFT;

    /** The pair and a fast-register region on its remote side, registered over fresh pages. */
    private record Registered(RcPair pair, MemoryRegion region, MemorySegment memory, int key) {
    }

    private static Registered register(Testbed bed) {
        Require.supportedAtCreation("fast registration (allocateFastRegMr) on " + bed.remote(),
                () -> bed.track(bed.pd(bed.remote()).allocateFastRegMr(PAGES)));
        RcPair pair = bed.rcPair(new RcSpec().allow(WrOpcode.REG_MR));
        MemoryRegion region = bed.track(pair.remote().pd().allocateFastRegMr(PAGES));
        // The pages must be memory the provider can reach: a Java provider reaches native memory
        // only through registered segments, so they are registered (locally) in the same domain first.
        MemorySegment memory = bed.buffer(pair.remote().pd(), LENGTH, Access.LOCAL_WRITE).memory();
        long[] pages = new long[PAGES];
        for (int i = 0; i < PAGES; i++) {
            pages[i] = memory.address() + ((long) i << PAGE_SHIFT);
        }
        int key = MemoryWindow.incrementRkey(region.rkey());
        int access = Access.toMask(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
        pair.remote().qp().postSend(new SendWorkRequest().wrId(801).signaled(true)
                .registerMr(region, key, pages, PAGES, PAGE_SHIFT, memory.address(), LENGTH, access));
        Expect.success(WcOpcode.REG_MR, 801, Completions.next(pair.remote().sendCq(), "the fast registration"), "REG_MR");
        return new Registered(pair, region, memory, key);
    }

    @Test
    void fastRegisteredRegionAcceptsRemoteWrite(Testbed bed) {
        Registered r = register(bed);
        Buffer source = r.pair().local().buffer(512);
        Bytes.fill(source.memory(), 93);

        r.pair().local().qp().postSend(new SendWorkRequest().wrId(802).signaled(true).buffer(source.region(), 0, 512)
                .rdmaWrite(r.memory().address() + 4000, r.key()));

        Expect.success(WcOpcode.RDMA_WRITE, 802, Completions.next(r.pair().local().sendCq(), "the write"), "write into the fast-registered region");
        Bytes.assertSame(source.memory(), r.memory().asSlice(4000, 512), "bytes written across a page boundary");
    }

    @Test
    void localInvalidateRevokesFastRegisteredRegion(Testbed bed) {
        Registered r = register(bed);
        Buffer source = r.pair().local().buffer(64);

        r.pair().remote().qp().postSend(new SendWorkRequest().wrId(803).signaled(true).localInvalidate(r.key()));
        Expect.success(WcOpcode.LOCAL_INV, 803, Completions.next(r.pair().remote().sendCq(), "the local invalidate"), "LOCAL_INV");

        r.pair().local().qp().postSend(new SendWorkRequest().wrId(804).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(r.memory().address(), r.key()));
        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(r.pair().local().sendCq(), "the write"),
                "write into an invalidated fast-registered region");
    }

    @Test
    void sendWithInvalidateRevokesFastRegisteredRegion(Testbed bed) {
        Registered r = register(bed);
        Buffer source = r.pair().local().buffer(64);
        Buffer sink = r.pair().remote().buffer(64);
        r.pair().remote().postRecv(805, sink, 0, 64);

        r.pair().local().qp().postSend(new SendWorkRequest().wrId(806).signaled(true).buffer(source.region(), 0, 8)
                .sendWithInv(r.key()));

        Expect.success(WcOpcode.SEND, 806, Completions.next(r.pair().local().sendCq(), "the send with invalidate"), "SEND_WITH_INV");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 805, Completions.next(r.pair().remote().recvCq(), "the receive"), "receive");
        assertTrue(recv.withInv(), "IBV_WC_WITH_INV is set: " + recv);
        assertEquals(r.key(), recv.invalidatedRkey(), "invalidated_rkey of the receive");
        r.pair().local().qp().postSend(new SendWorkRequest().wrId(807).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(r.memory().address(), r.key()));
        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(r.pair().local().sendCq(), "the write"),
                "write into a remotely invalidated fast-registered region");
    }
}
