package dev.verbs4j.conformance.base;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
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
 * 64-bit atomics: compare-and-swap and fetch-and-add return the original value into the
 * local entry and update the remote one. Values are native-order longs on both sides,
 * as the CPU reads them.
 */
@ConformanceSuite
class AtomicTest {

    @Test
    void compareAndSwapSwapsWhenEqual(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);
        Buffer result = pair.local().buffer(64);
        target.memory().set(ValueLayout.JAVA_LONG, 8, 0x1122334455667788L);

        pair.local().qp().postSend(new SendWorkRequest().wrId(81).signaled(true).buffer(result.region(), 16, 8)
                .compareAndSwap(target.remoteAddress(8), target.rkey(), 0x1122334455667788L, 0x0102030405060708L));

        WorkCompletion wc = Expect.success(WcOpcode.COMP_SWAP, 81, Completions.next(pair.local().sendCq(), "the compare-and-swap"),
                "compare-and-swap completion");
        assertEquals(8, wc.byteLength(), "byte_len of an atomic");
        assertEquals(0x1122334455667788L, result.memory().get(ValueLayout.JAVA_LONG, 16), "original value returned");
        assertEquals(0x0102030405060708L, target.memory().get(ValueLayout.JAVA_LONG, 8), "remote value after a matching compare");
    }

    @Test
    void compareAndSwapKeepsValueWhenDifferent(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);
        Buffer result = pair.local().buffer(64);
        target.memory().set(ValueLayout.JAVA_LONG, 0, 42L);

        pair.local().qp().postSend(new SendWorkRequest().wrId(82).signaled(true).buffer(result.region(), 0, 8)
                .compareAndSwap(target.remoteAddress(0), target.rkey(), 41L, 99L));

        Expect.success(WcOpcode.COMP_SWAP, 82, Completions.next(pair.local().sendCq(), "the compare-and-swap"), "completion");
        assertEquals(42L, result.memory().get(ValueLayout.JAVA_LONG, 0), "original value returned on a mismatch");
        assertEquals(42L, target.memory().get(ValueLayout.JAVA_LONG, 0), "remote value after a mismatching compare");
    }

    @Test
    void fetchAndAddAddsAndReturnsOriginal(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);
        Buffer result = pair.local().buffer(64);
        target.memory().set(ValueLayout.JAVA_LONG, 24, 0x00000000FFFFFFFFL);

        pair.local().qp().postSend(new SendWorkRequest().wrId(83).signaled(true).buffer(result.region(), 8, 8)
                .fetchAndAdd(target.remoteAddress(24), target.rkey(), 1L));
        Expect.success(WcOpcode.FETCH_ADD, 83, Completions.next(pair.local().sendCq(), "the first fetch-and-add"), "completion");
        pair.local().qp().postSend(new SendWorkRequest().wrId(84).signaled(true).buffer(result.region(), 16, 8)
                .fetchAndAdd(target.remoteAddress(24), target.rkey(), -2L));
        WorkCompletion wc = Expect.success(WcOpcode.FETCH_ADD, 84, Completions.next(pair.local().sendCq(), "the second fetch-and-add"),
                "completion");

        assertEquals(8, wc.byteLength(), "byte_len of an atomic");
        assertEquals(0x00000000FFFFFFFFL, result.memory().get(ValueLayout.JAVA_LONG, 8), "value before the first add");
        assertEquals(0x0000000100000000L, result.memory().get(ValueLayout.JAVA_LONG, 16), "value before the second add (carry into bit 32)");
        assertEquals(0x00000000FFFFFFFEL, target.memory().get(ValueLayout.JAVA_LONG, 24), "remote value after both adds");
    }
}
