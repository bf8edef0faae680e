package dev.verbs4j.conformance.errors;

import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gather entry the requester cannot use completes with IBV_WC_LOC_PROT_ERR: an lkey
 * that names no region, one of another protection domain, or a range past its region's end
 * (IBTA 10.6.3.3).
 */
@ConformanceSuite
class LocalProtectionTest {

    @Test
    void unknownLkeyIsLocalProtectionError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer target = pair.remote().buffer(4096);
        SendWorkRequest wr = new SendWorkRequest().wrId(201).signaled(true).rdmaWrite(target.remoteAddress(0), target.rkey());
        wr.sges().clear().add(source.memory().address(), 64, ~source.lkey());

        pair.local().qp().postSend(wr);

        assertEquals(201, Expect.status(WcStatus.LOC_PROT_ERR, Completions.next(pair.local().sendCq(), "a write with a bad lkey"),
                "write with an unknown lkey").wrId());
    }

    @Test
    void lkeyOfAnotherProtectionDomainIsLocalProtectionError(Testbed bed) {
        RcPair pair = bed.rcPair();
        ProtectionDomain otherPd = bed.pd(bed.local());
        Buffer foreign = bed.buffer(otherPd, 4096, Buffer.allRemoteAccess());
        Buffer target = pair.remote().buffer(4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(202).signaled(true).buffer(foreign.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.status(WcStatus.LOC_PROT_ERR, Completions.next(pair.local().sendCq(), "a write from another PD's region"),
                "write gathering from a region of another protection domain");
    }

    @Test
    void gatherPastTheEndOfItsRegionIsLocalProtectionError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer target = pair.remote().buffer(4096);
        SendWorkRequest wr = new SendWorkRequest().wrId(203).signaled(true).rdmaWrite(target.remoteAddress(0), target.rkey());
        wr.sges().clear().add(source.memory().address() + 4096 - 32, 64, source.lkey());

        pair.local().qp().postSend(wr);

        Expect.status(WcStatus.LOC_PROT_ERR, Completions.next(pair.local().sendCq(), "a write gathering past its region's end"),
                "write gathering past the end of its region");
    }
}
