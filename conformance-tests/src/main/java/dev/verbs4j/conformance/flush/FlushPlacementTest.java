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
import dev.verbs4j.conformance.fixture.MappedFiles;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

/**
 * FLUSH placement types: a type the region or the queue pair does not grant is refused,
 * and persistence works on memory that can persist. Persistent placement needs a region
 * over persistent memory; the cases map a file, and skip when the provider refuses
 * FLUSH_PERSISTENT on it (the kernel allows it only on pmem and answers EINVAL).
 */
@ConformanceSuite
class FlushPlacementTest {
    private static final int REGION = 16 * 1024;

    @Test
    void persistentFlushOnGlobalOnlyRegionIsRemoteAccessError(Testbed bed) {
        FlushSetup.requirePersistent(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL, Access.FLUSH_PERSISTENT);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);

        pair.local().qp().postSend(new SendWorkRequest().wrId(21).signaled(true)
                .flush(target.remoteAddress(0), target.rkey(), REGION, FlushType.PERSISTENT, FlushLevel.RANGE));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the persistent flush"),
                "persistent flush of a region registered with FLUSH_GLOBAL only");
    }

    /**
     * The queue pair's access flags lack the placement type while the region grants it.
     * IBTA 1.5 treats the missing right as a remote access error; the kernel rxe rejects
     * the opcode in {@code check_op_valid} and answers IBV_WC_REM_INV_REQ_ERR, which shows
     * here as a failure.
     */
    @Test
    void flushOfPlacementTheQueuePairDoesNotGrantIsRemoteAccessError(Testbed bed) {
        FlushSetup.requireGlobal(bed);
        RcPair pair = FlushSetup.pair(bed);
        Buffer target = FlushSetup.target(bed, pair, REGION, Access.FLUSH_GLOBAL);

        pair.local().qp().postSend(new SendWorkRequest().wrId(22).signaled(true)
                .flush(target.remoteAddress(0), target.rkey(), REGION, FlushType.GLOBAL, FlushLevel.RANGE));

        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.local().sendCq(), "the flush"),
                "global flush through a queue pair without FLUSH_GLOBAL access");
    }

    @Test
    void persistentFlushOfMappedFileRegionCompletes(Testbed bed) {
        FlushSetup.requirePersistent(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL, Access.FLUSH_PERSISTENT);
        Buffer target = FlushSetup.register(bed, pair, MappedFiles.map(bed, REGION), Access.FLUSH_PERSISTENT);
        Buffer source = pair.local().buffer(REGION);
        Bytes.fill(source.memory(), 81);

        pair.local().qp().postSend(new SendWorkRequest().wrId(23).signaled(true).buffer(source.region(), 0, 5000)
                .rdmaWrite(target.remoteAddress(100), target.rkey()));
        pair.local().qp().postSend(new SendWorkRequest().wrId(24).signaled(true)
                .flush(target.remoteAddress(100), target.rkey(), 5000, FlushType.PERSISTENT, FlushLevel.RANGE));

        Expect.success(WcOpcode.RDMA_WRITE, 23, Completions.next(pair.local().sendCq(), "the write"), "write");
        Expect.success(WcOpcode.FLUSH, 24, Completions.next(pair.local().sendCq(), "the persistent flush"), "persistent flush");
        Bytes.assertSame(source.slice(0, 5000), target.slice(100, 5000), "persisted bytes");
    }

    @Test
    void flushWithBothPlacementTypesOnRegionAllowingBothCompletes(Testbed bed) {
        FlushSetup.requirePersistent(bed);
        RcPair pair = FlushSetup.pair(bed, Access.FLUSH_GLOBAL, Access.FLUSH_PERSISTENT);
        Buffer target = FlushSetup.register(bed, pair, MappedFiles.map(bed, REGION), Access.FLUSH_GLOBAL, Access.FLUSH_PERSISTENT);
        Buffer source = pair.local().buffer(REGION);
        Bytes.fill(source.memory(), 82);
        int both = FlushType.GLOBAL.value() | FlushType.PERSISTENT.value();

        pair.local().qp().postSend(new SendWorkRequest().wrId(25).signaled(true).buffer(source.region(), 0, REGION)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));
        pair.local().qp().postSend(new SendWorkRequest().wrId(26).signaled(true)
                .flush(target.remoteAddress(0), target.rkey(), REGION, both, FlushLevel.MR));

        Expect.success(WcOpcode.RDMA_WRITE, 25, Completions.next(pair.local().sendCq(), "the write"), "write");
        Expect.success(WcOpcode.FLUSH, 26, Completions.next(pair.local().sendCq(), "the flush with both placement types"),
                "global and persistent flush of the whole region");
        Bytes.assertSame(source.memory(), target.memory(), "flushed region");
    }
}
