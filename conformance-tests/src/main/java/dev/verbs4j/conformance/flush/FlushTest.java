package dev.verbs4j.conformance.flush;

import dev.verbs4j.Access;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

/**
 * RDMA FLUSH with global-visibility placement: after WRITEs, a FLUSH of a range or of
 * the whole region completes with IBV_WC_FLUSH; its range is checked against the
 * region unless the whole region is flushed; and it orders the QP's earlier writes
 * before later requests. Modelled on pyverbs' {@code test_qp_ex_rc_flush}.
 */
@ConformanceSuite
class FlushTest {
    private static final int REGION = 64 * 1024;
    /** Seed for the random ranges; set {@code verbs4j.conformance.seed} to replay one. */
    private static final long SEED = Long.getLong("verbs4j.conformance.seed", System.nanoTime());

    @Test
    void rangeFlushAfterWriteCompletesForRandomRanges(Testbed bed) {
        FlushSetup.requireGlobal(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);
        Buffer source = pair.local().buffer(REGION);
        Bytes.fill(source.memory(), 71);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int round = 0; round < 6; round++) {
            int length = 1 + random.nextInt(REGION / 2);
            int offset = random.nextInt(REGION - length + 1);
            String what = "round " + round + " (seed " + SEED + "): " + length + " bytes at offset " + offset;
            pair.local().qp().postSend(new SendWorkRequest().wrId(2 * round).signaled(true).buffer(source.region(), offset, length)
                    .rdmaWrite(target.remoteAddress(offset), target.rkey()));
            pair.local().qp().postSend(new SendWorkRequest().wrId(2 * round + 1).signaled(true)
                    .flush(target.remoteAddress(offset), target.rkey(), length, FlushType.GLOBAL, FlushLevel.RANGE));

            Expect.success(WcOpcode.RDMA_WRITE, 2 * round, Completions.next(pair.local().sendCq(), "the write, " + what), what);
            Expect.success(WcOpcode.FLUSH, 2 * round + 1, Completions.next(pair.local().sendCq(), "the range flush, " + what), what);
            Bytes.assertSame(source.slice(offset, length), target.slice(offset, length), "flushed bytes, " + what);
        }
    }

    @Test
    void wholeRegionFlushAfterWriteCompletes(Testbed bed) {
        FlushSetup.requireGlobal(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);
        Buffer source = pair.local().buffer(REGION);
        Bytes.fill(source.memory(), 72);

        pair.local().qp().postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(source.region(), 0, REGION)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));
        pair.local().qp().postSend(new SendWorkRequest().wrId(2).signaled(true)
                .flush(target.remoteAddress(0), target.rkey(), REGION, FlushType.GLOBAL, FlushLevel.MR));

        Expect.success(WcOpcode.RDMA_WRITE, 1, Completions.next(pair.local().sendCq(), "the write"), "write");
        Expect.success(WcOpcode.FLUSH, 2, Completions.next(pair.local().sendCq(), "the whole-region flush"), "whole-region flush");
        Bytes.assertSame(source.memory(), target.memory(), "flushed region");
    }

    @Test
    void zeroLengthRangeFlushCompletes(Testbed bed) {
        FlushSetup.requireGlobal(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);

        pair.local().qp().postSend(new SendWorkRequest().wrId(3).signaled(true)
                .flush(target.remoteAddress(0), target.rkey(), 0, FlushType.GLOBAL, FlushLevel.RANGE));

        Expect.success(WcOpcode.FLUSH, 3, Completions.next(pair.local().sendCq(), "the zero-length flush"), "zero-length flush");
    }

    @Test
    void wholeRegionFlushIgnoresAddressAndLength(Testbed bed) {
        FlushSetup.requireGlobal(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);

        pair.local().qp().postSend(new SendWorkRequest().wrId(4).signaled(true)
                .flush(0xDEAD_0000_0000L, target.rkey(), 0x7FFF_F000L, FlushType.GLOBAL, FlushLevel.MR));

        Expect.success(WcOpcode.FLUSH, 4, Completions.next(pair.local().sendCq(), "the whole-region flush with a bogus range"),
                "whole-region flush naming an address and length outside the region");
    }

    @Test
    void rangeFlushPastRegionEndIsRemoteAccessError(Testbed bed) {
        FlushSetup.requireGlobal(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);

        pair.local().qp().postSend(new SendWorkRequest().wrId(5).signaled(true)
                .flush(target.remoteAddress(REGION - 100), target.rkey(), 200, FlushType.GLOBAL, FlushLevel.RANGE));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the out-of-range flush"),
                "range flush of 200 bytes starting 100 bytes before the region's end");
    }

    @Test
    void flushOrdersEarlierWritesBeforeLaterRead(Testbed bed) {
        FlushSetup.requireGlobal(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);
        Buffer source = pair.local().buffer(REGION);
        Buffer readBack = pair.local().buffer(3000);
        Bytes.fill(source.memory(), 73);

        pair.local().qp().postSend(new SendWorkRequest().wrId(11).signaled(true).buffer(source.region(), 0, 1000)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));
        pair.local().qp().postSend(new SendWorkRequest().wrId(12).signaled(true).buffer(source.region(), 2000, 1000)
                .rdmaWrite(target.remoteAddress(2000), target.rkey()));
        pair.local().qp().postSend(new SendWorkRequest().wrId(13).signaled(true)
                .flush(target.remoteAddress(0), target.rkey(), 3000, FlushType.GLOBAL, FlushLevel.RANGE));
        pair.local().qp().postSend(new SendWorkRequest().wrId(14).signaled(true).buffer(readBack.region(), 0, 3000)
                .rdmaRead(target.remoteAddress(0), target.rkey()));

        Expect.success(WcOpcode.RDMA_WRITE, 11, Completions.next(pair.local().sendCq(), "the first write"), "first write");
        Expect.success(WcOpcode.RDMA_WRITE, 12, Completions.next(pair.local().sendCq(), "the second write"), "second write");
        Expect.success(WcOpcode.FLUSH, 13, Completions.next(pair.local().sendCq(), "the flush"), "flush");
        Expect.success(WcOpcode.RDMA_READ, 14, Completions.next(pair.local().sendCq(), "the read"), "read");
        Bytes.assertSame(source.slice(0, 1000), readBack.slice(0, 1000), "first write as read back after the flush");
        Bytes.assertFilled(readBack.slice(1000, 1000), (byte) 0, "the gap between the writes");
        Bytes.assertSame(source.slice(2000, 1000), readBack.slice(2000, 1000), "second write as read back after the flush");
    }
}
