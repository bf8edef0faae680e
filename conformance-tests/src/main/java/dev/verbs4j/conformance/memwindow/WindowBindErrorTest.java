package dev.verbs4j.conformance.memwindow;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A bind the region cannot back completes with IBV_WC_MW_BIND_ERR (IBTA 10.6.7.2.x, rxe
 * {@code rxe_check_bind_mw}): a window may not grant remote write or atomic access over
 * a region without local write, nor reach past the region's bounds.
 */
@ConformanceSuite
class WindowBindErrorTest {

    @Test
    void windowCannotGrantRemoteWriteOverRegionWithoutLocalWrite(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = bed.buffer(pair.remote().pd(), Windows.REGION, Access.MW_BIND, Access.REMOTE_READ);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);

        Windows.Bound bound = Windows.postType2Bind(pair, mw, region, 0, 4096, EnumSet.of(Access.REMOTE_WRITE), 701);

        Expect.status(WcStatus.MW_BIND_ERR, bound.completion(), "bind granting REMOTE_WRITE over a region without LOCAL_WRITE");
        assertEquals(701, bound.completion().wrId(), "wrId of the failed bind");
    }

    @Test
    void windowCannotReachPastRegionEnd(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);

        Windows.Bound bound = Windows.postType2Bind(pair, mw, region, Windows.REGION - 1024, 4096, Windows.remoteWrite(), 702);

        Expect.status(WcStatus.MW_BIND_ERR, bound.completion(), "bind of 4096 bytes starting 1024 bytes before the region's end");
    }
}
