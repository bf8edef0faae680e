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
        Buffer foreign = bed.buffer(bed.pd(bed.remote()), 4096, Access.LOCAL_WRITE);

        sendIntoAReceiveItsKeyDoesNotGrant(pair, foreign, 0, 256, "a receive of another PD's region");
    }

    @Test
    void receivePastTheEndOfItsRegionIsLocalProtectionError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(4096);

        sendIntoAReceiveItsKeyDoesNotGrant(pair, target, 4096 - 32, 64, "a receive past its region's end");
    }

    /**
     * Sends 64 bytes into a receive of {@code length} bytes at {@code offset} of {@code buffer},
     * which the receive's local key does not grant, and checks the class A outcome: the sender
     * gets REM_OP_ERR, the receive LOC_PROT_ERR, the receiving queue pair goes to error, and
     * the byte at {@code offset} stays unwritten.
     */
    private static void sendIntoAReceiveItsKeyDoesNotGrant(RcPair pair, Buffer buffer, long offset, int length, String what) {
        Buffer source = pair.local().buffer(256);
        source.memory().asSlice(0, 64).fill((byte) 0x5C);
        pair.remote().postRecv(341, buffer, offset, length);

        pair.local().qp().postSend(new SendWorkRequest().wrId(340).signaled(true).buffer(source.region(), 0, 64).send());

        Expect.status(WcStatus.REM_OP_ERR, Completions.next(pair.local().sendCq(), "a send into " + what),
                "sender whose message the responder cannot place");
        WorkCompletion recv = Expect.status(WcStatus.LOC_PROT_ERR, Completions.next(pair.remote().recvCq(), what), what);
        assertEquals(341, recv.wrId(), "wrId of the failed receive");
        QpStates.await(pair.remote().qp(), QpState.ERR, "the receiving queue pair after a class A error");
        assertEquals(0, buffer.memory().get(ValueLayout.JAVA_BYTE, offset), "the receive's memory was not written");
    }
}
