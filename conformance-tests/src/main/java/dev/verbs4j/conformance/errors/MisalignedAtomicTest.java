package dev.verbs4j.conformance.errors;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An atomic at an address that is not 8-byte aligned is an invalid request (IBA A19.4.2
 * via rxe {@code atomic_reply}): NAK "invalid request", IBV_WC_REM_INV_REQ_ERR, and
 * the target is left alone.
 */
@ConformanceSuite
class MisalignedAtomicTest {

    @Test
    void misalignedCompareAndSwapIsInvalidRequest(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);
        Buffer result = pair.local().buffer(64);
        target.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, 4, 0L);

        pair.local().qp().postSend(new SendWorkRequest().wrId(221).signaled(true).buffer(result.region(), 0, 8)
                .compareAndSwap(target.remoteAddress(4), target.rkey(), 0L, -1L));

        Expect.status(WcStatus.REM_INV_REQ_ERR, Completions.next(pair.local().sendCq(), "the misaligned compare-and-swap"),
                "compare-and-swap at offset 4");
        assertEquals(0L, target.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 4), "target of the refused atomic");
    }

    @Test
    void misalignedFetchAndAddIsInvalidRequest(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);
        Buffer result = pair.local().buffer(64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(222).signaled(true).buffer(result.region(), 0, 8)
                .fetchAndAdd(target.remoteAddress(1), target.rkey(), 5L));

        Expect.status(WcStatus.REM_INV_REQ_ERR, Completions.next(pair.local().sendCq(), "the misaligned fetch-and-add"),
                "fetch-and-add at offset 1");
        assertEquals(0L, target.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 1), "target of the refused atomic");
    }
}
