package dev.verbs4j.conformance.odp;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.MrAdvice;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.QpType;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

/**
 * {@code ibv_advise_mr} on On-Demand Paging regions: prefetching (synchronously with
 * IBV_ADVISE_MR_FLAG_FLUSH, or in the background), and mapping only present pages
 * (PREFETCH_NO_FAULT), must leave the region fully usable by the transport. A device
 * that answers EOPNOTSUPP has no prefetch and the case is skipped. Advice on a region
 * registered without ON_DEMAND is EINVAL. Modelled on pyverbs' {@code test_odp_*prefetch*}.
 */
@ConformanceSuite
class OdpPrefetchTest {
    private static final int LENGTH = 4 * 4096;

    private static void prefetchThenWrite(Testbed bed, MrAdvice advice, int flags) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.WRITE);
        RcPair pair = bed.rcPair();
        Buffer target = OnDemand.buffer(bed, pair.remote().pd(), LENGTH);
        Buffer source = OnDemand.buffer(bed, pair.local().pd(), LENGTH);
        Bytes.fill(source.memory(), 111);
        ScatterGatherList whole = new ScatterGatherList(1).add(target.region(), 0, LENGTH);
        Require.supportedAtCreation("ibv_advise_mr " + advice + " on " + bed.remote(),
                () -> {
                    pair.remote().pd().adviseMr(advice, flags, whole);
                    return null;
                });

        pair.local().qp().postSend(new SendWorkRequest().wrId(911).signaled(true).buffer(source.region(), 0, LENGTH)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.success(WcOpcode.RDMA_WRITE, 911, Completions.next(pair.local().sendCq(), "the write after " + advice),
                "write into an on-demand region after " + advice);
        Bytes.assertSame(source.memory(), target.memory(), "written bytes");
    }

    @Test
    void synchronousPrefetchForWriteKeepsRegionUsable(Testbed bed) {
        prefetchThenWrite(bed, MrAdvice.PREFETCH_WRITE, MrAdvice.FLAG_FLUSH);
    }

    @Test
    void asynchronousPrefetchKeepsRegionUsable(Testbed bed) {
        prefetchThenWrite(bed, MrAdvice.PREFETCH, 0);
    }

    @Test
    void noFaultPrefetchKeepsRegionUsable(Testbed bed) {
        prefetchThenWrite(bed, MrAdvice.PREFETCH_NO_FAULT, MrAdvice.FLAG_FLUSH);
    }

    @Test
    void prefetchOfARegionNotOnDemandIsInvalid(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.WRITE);
        RcPair pair = bed.rcPair();
        Buffer pinned = bed.buffer(pair.remote().pd(), LENGTH, Buffer.allRemoteAccess());
        Buffer target = OnDemand.buffer(bed, pair.remote().pd(), LENGTH);
        Require.supportedAtCreation("ibv_advise_mr PREFETCH_WRITE on " + bed.remote(),
                () -> {
                    pair.remote().pd().adviseMr(MrAdvice.PREFETCH_WRITE, MrAdvice.FLAG_FLUSH,
                            new ScatterGatherList(1).add(target.region(), 0, LENGTH));
                    return null;
                });

        for (MrAdvice advice : MrAdvice.values()) {
            ScatterGatherList range = new ScatterGatherList(1).add(pinned.region(), 0, LENGTH);
            Expect.errno(Errno.EINVAL, () -> pair.remote().pd().adviseMr(advice, MrAdvice.FLAG_FLUSH, range),
                    "ibv_advise_mr " + advice + " on a region registered with " + pinned.region().access());
        }
        ScatterGatherList both = new ScatterGatherList(2).add(target.region(), 0, LENGTH).add(pinned.region(), 0, LENGTH);
        Expect.errno(Errno.EINVAL, () -> pair.remote().pd().adviseMr(MrAdvice.PREFETCH_WRITE, MrAdvice.FLAG_FLUSH, both),
                "ibv_advise_mr of an on-demand range and one that is not");

        Buffer source = bed.buffer(pair.local().pd(), LENGTH, Access.LOCAL_WRITE);
        Bytes.fill(source.memory(), 57);
        pair.local().qp().postSend(new SendWorkRequest().wrId(912).signaled(true).buffer(source.region(), 0, LENGTH)
                .rdmaWrite(pinned.remoteAddress(0), pinned.rkey()));
        Expect.success(WcOpcode.RDMA_WRITE, 912, Completions.next(pair.local().sendCq(), "the write after the refused advice"),
                "write into the region the advice was refused for");
        Bytes.assertSame(source.memory(), pinned.memory(), "written bytes");
    }
}
