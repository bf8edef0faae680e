package dev.verbs4j.conformance.memwindow;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Type 1 memory windows (IBTA 10.6.7): bound with {@code ibv_bind_mw}, they grant remote
 * access to part of a region under a fresh rkey; binding again retires the old rkey, a
 * zero-length bind revokes access, and a region with a bound window cannot be
 * deregistered. Modelled on pyverbs' {@code MWTest}.
 */
@ConformanceSuite
class Type1WindowTest {

    @Test
    void remoteWriteLandsThroughBoundWindow(Testbed bed) {
        Windows.requireType1(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(256);
        Bytes.fill(source.memory(), 91);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_1);
        int rkey = Windows.bindType1(pair, mw, region, 1024, 4096, Windows.remoteWrite(), 501);

        Expect.success(WcOpcode.RDMA_WRITE, 502, Windows.write(pair, source, 256, region.remoteAddress(1024 + 100), rkey, 502),
                "write through the window");
        Bytes.assertSame(source.memory(), region.slice(1124, 256), "bytes written through the window");
    }

    @Test
    void zeroLengthBindRevokesWindow(Testbed bed) {
        Windows.requireType1(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(64);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_1);
        int rkey = Windows.bindType1(pair, mw, region, 0, 4096, Windows.remoteWrite(), 511);
        Windows.bindType1(pair, mw, region, 0, 0, Windows.remoteWrite(), 512);

        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), rkey, 513),
                "write through a window revoked by a zero-length bind");
        Bytes.assertFilled(region.memory(), (byte) 0, "the region behind the revoked window");
    }

    @Test
    void writeThroughReadOnlyWindowIsRemoteAccessError(Testbed bed) {
        Windows.requireType1(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(64);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_1);
        int rkey = Windows.bindType1(pair, mw, region, 0, 4096, EnumSet.of(Access.REMOTE_READ), 521);

        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), rkey, 522),
                "write through a window bound with REMOTE_READ only");
    }

    @Test
    void rkeyOfEarlierBindIsRejectedAfterRebind(Testbed bed) {
        Windows.requireType1(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(64);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_1);
        int first = Windows.bindType1(pair, mw, region, 0, 4096, Windows.remoteWrite(), 531);
        int second = Windows.bindType1(pair, mw, region, 0, 4096, Windows.remoteWrite(), 532);
        assertNotEquals(first, second, "a bind gives the window a new rkey");

        Expect.success(WcOpcode.RDMA_WRITE, 533, Windows.write(pair, source, 64, region.remoteAddress(0), second, 533),
                "write through the current rkey");
        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), first, 534),
                "write through the rkey of the earlier bind");
    }

    /**
     * IBA 10.6.7.2.6 forbids deregistering a region with bound windows; the verbs API
     * reports it as EBUSY like every other "still in use" refusal. The kernel rxe
     * ({@code rxe_dereg_mr}) answers EINVAL, which shows here as a failure unless the
     * provider maps it.
     */
    @Test
    void deregisteringRegionWithBoundWindowFailsWithEbusy(Testbed bed) {
        Windows.requireType1(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_1);
        Windows.bindType1(pair, mw, region, 0, 4096, Windows.remoteWrite(), 551);

        Expect.errno(Errno.EBUSY, () -> region.region().close(), "ibv_dereg_mr of a region with a bound window");

        bed.closeNow(mw);
        assertDoesNotThrow(() -> region.region().close(), "ibv_dereg_mr once the window is deallocated");
    }
}
