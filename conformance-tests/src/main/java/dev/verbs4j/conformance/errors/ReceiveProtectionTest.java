package dev.verbs4j.conformance.errors;

import dev.verbs4j.Access;
import dev.verbs4j.QpState;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A receive whose scatter entry names a region of another protection domain: the responder
 * cannot place the SEND, a local protection error on its own buffer (IBTA 10.6.3.3; class A).
 * The receive completes with IBV_WC_LOC_PROT_ERR, the sender is told with a remote
 * operational error NAK (IBV_WC_REM_OP_ERR), the receiving queue pair enters the error state,
 * and the foreign region is not written. A scatter entry that runs past the end of its own
 * region fails the same check, on its range. The kernel rxe treats either receive as malformed
 * and completes it with IBV_WC_LOC_QP_OP_ERR.
 */
@ConformanceSuite
class ReceiveProtectionTest {

    @Test
    void receiveIntoAnotherDomainsRegionIsLocalProtectionError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(256);
        Buffer foreign = bed.buffer(bed.pd(bed.remote()), 4096, Access.LOCAL_WRITE);
        source.memory().asSlice(0, 64).fill((byte) 0x5C);
        pair.remote().postRecv(341, foreign, 0, 256);

        pair.local().qp().postSend(new SendWorkRequest().wrId(340).signaled(true).buffer(source.region(), 0, 64).send());

        Expect.status(WcStatus.REM_OP_ERR, Completions.next(pair.local().sendCq(), "a send into a receive of another PD's region"),
                "sender whose message the responder cannot place");
        WorkCompletion recv = Expect.status(WcStatus.LOC_PROT_ERR,
                Completions.next(pair.remote().recvCq(), "the receive of another PD's region"), "receive into another PD's region");
        assertEquals(341, recv.wrId(), "wrId of the failed receive");
        QpStates.await(pair.remote().qp(), QpState.ERR, "the receiving queue pair after a class A error");
        assertEquals(0, foreign.memory().get(ValueLayout.JAVA_BYTE, 0), "the other domain's region was not written");
    }

    @Test
    void receivePastTheEndOfItsRegionIsLocalProtectionError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(256);
        Buffer target = pair.remote().buffer(4096);
        source.memory().asSlice(0, 64).fill((byte) 0x5D);
        pair.remote().postRecv(343, target, 4096 - 32, 64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(342).signaled(true).buffer(source.region(), 0, 64).send());

        Expect.status(WcStatus.REM_OP_ERR, Completions.next(pair.local().sendCq(), "a send into a receive past its region's end"),
                "sender whose message the responder cannot place");
        WorkCompletion recv = Expect.status(WcStatus.LOC_PROT_ERR,
                Completions.next(pair.remote().recvCq(), "the receive past its region's end"), "receive past its region's end");
        assertEquals(343, recv.wrId(), "wrId of the failed receive");
        QpStates.await(pair.remote().qp(), QpState.ERR, "the receiving queue pair after a class A error");
        assertEquals(0, target.memory().get(ValueLayout.JAVA_BYTE, 4096 - 32), "the region's last bytes were not written");
    }
}
