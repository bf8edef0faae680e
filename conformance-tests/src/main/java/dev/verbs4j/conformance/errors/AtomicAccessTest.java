package dev.verbs4j.conformance.errors;

import dev.verbs4j.Access;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An atomic whose result entry names no local region is a local protection error (IBTA
 * 10.6.3.3). An atomic the responder does not allow fails and leaves the remote value as it was. Memory
 * that refuses it is a remote access error (IBTA 9.7.5.2.4, 10.6.3.1): the rkey names no
 * region, or the region lacks REMOTE_ATOMIC. A responder queue pair that does not enable
 * atomics at all refuses the operation itself: an invalid request (class C NAK), as the
 * queue pair access check of the kernel rxe answers it.
 */
@ConformanceSuite
class AtomicAccessTest {
    private static final long VALUE = 5;

    private static void expectRefusedFetchAndAdd(RcPair pair, Buffer target, int rkey, long wrId, String what) {
        expectRefusedFetchAndAdd(pair, target, rkey, wrId, WcStatus.REM_ACCESS_ERR, what);
    }

    private static void expectRefusedFetchAndAdd(RcPair pair, Buffer target, int rkey, long wrId, WcStatus status, String what) {
        Buffer result = pair.local().buffer(64);
        target.memory().set(ValueLayout.JAVA_LONG, 0, VALUE);

        pair.local().qp().postSend(new SendWorkRequest().wrId(wrId).signaled(true).buffer(result.region(), 0, 8)
                .fetchAndAdd(target.remoteAddress(0), rkey, 1));

        Expect.status(status, Completions.next(pair.local().sendCq(), what), what);
        assertEquals(VALUE, target.memory().get(ValueLayout.JAVA_LONG, 0), "the remote value after " + what);
    }

    @Test
    void fetchAndAddWithUnknownRkeyIsRemoteAccessError(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);

        expectRefusedFetchAndAdd(pair, target, ~target.rkey(), 231, "fetch-and-add with an unknown rkey");
    }

    @Test
    void fetchAndAddOnRegionWithoutRemoteAtomicIsRemoteAccessError(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = bed.buffer(pair.remote().pd(), 64, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);

        expectRefusedFetchAndAdd(pair, target, target.rkey(), 232, "fetch-and-add on a region without REMOTE_ATOMIC");
    }

    @Test
    void fetchAndAddToQueuePairWithoutRemoteAtomicIsInvalidRequest(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair(new RcSpec().qpAccess(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ)));
        Buffer target = pair.remote().buffer(64);

        expectRefusedFetchAndAdd(pair, target, target.rkey(), 233, WcStatus.REM_INV_REQ_ERR,
                "fetch-and-add to a queue pair that does not grant REMOTE_ATOMIC");
    }

    @Test
    void fetchAndAddIntoUnknownLkeyIsLocalProtectionError(Testbed bed) {
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer result = pair.local().buffer(64);
        Buffer target = pair.remote().buffer(64);
        SendWorkRequest wr = new SendWorkRequest().wrId(234).signaled(true).fetchAndAdd(target.remoteAddress(0), target.rkey(), 1);
        wr.sges().clear().add(result.memory().address(), 8, ~result.lkey());

        pair.local().qp().postSend(wr);

        Expect.status(WcStatus.LOC_PROT_ERR, Completions.next(pair.local().sendCq(), "a fetch-and-add with a bad lkey"),
                "fetch-and-add whose result entry has an unknown lkey");
    }
}
