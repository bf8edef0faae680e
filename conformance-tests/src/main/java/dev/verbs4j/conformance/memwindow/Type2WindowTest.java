package dev.verbs4j.conformance.memwindow;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.QpState;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcField;
import dev.verbs4j.WcFlag;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.ExtendedCompletion;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Type 2 memory windows (IBTA 10.6.7.2): bound by a BIND_MW work request to the queue
 * pair that posted it, usable only through that queue pair, and revoked by LOCAL_INV,
 * by the peer's SEND_WITH_INV (the receive reports IBV_WC_WITH_INV and the rkey) or by
 * deallocation. A LOCAL_INV of a window that is not bound changes nothing: it completes, or
 * is refused at the post with EINVAL where the provider knows the device would fault on it
 * (the ibverbs provider on the kernel's rxe), and the window still grants nothing. Modelled
 * on pyverbs' {@code test_mw_type2*}.
 */
@ConformanceSuite
class Type2WindowTest {

    @Test
    void remoteWriteLandsThroughBoundWindow(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(300);
        Bytes.fill(source.memory(), 92);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(pair, mw, region, 2048, 4096, Windows.remoteWrite(), 601);

        Expect.success(WcOpcode.RDMA_WRITE, 602, Windows.write(pair, source, 300, region.remoteAddress(2048 + 7), rkey, 602),
                "write through the type 2 window");
        Bytes.assertSame(source.memory(), region.slice(2055, 300), "bytes written through the window");
    }

    /** pyverbs' {@code test_qp_ex_rc_bind_mw}: a window bound without remote write refuses writes. */
    @Test
    void writeThroughReadOnlyWindowIsRemoteAccessError(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(64);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(pair, mw, region, 0, 4096, EnumSet.of(Access.REMOTE_READ), 605);

        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), rkey, 606),
                "write through a type 2 window bound with REMOTE_READ only");
        Bytes.assertFilled(region.memory(), (byte) 0, "the region behind the read-only window");
    }

    @Test
    void localInvalidateRevokesWindow(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(64);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(pair, mw, region, 0, 4096, Windows.remoteWrite(), 611);

        pair.remote().qp().postSend(new SendWorkRequest().wrId(612).signaled(true).localInvalidate(rkey));
        Expect.success(WcOpcode.LOCAL_INV, 612, Completions.next(pair.remote().sendCq(), "the local invalidate"), "LOCAL_INV");

        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), rkey, 613),
                "write through a locally invalidated window");
        Bytes.assertFilled(region.memory(), (byte) 0, "the region behind the invalidated window");
    }

    @Test
    void invalidatingAWindowTwiceChangesNothing(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(pair, mw, region, 0, 4096, Windows.remoteWrite(), 621);
        pair.remote().qp().postSend(new SendWorkRequest().wrId(622).signaled(true).localInvalidate(rkey));
        Expect.success(WcOpcode.LOCAL_INV, 622, Completions.next(pair.remote().sendCq(), "the first invalidate"), "LOCAL_INV");

        invalidationOfAnUnboundWindow(pair, region, rkey, 623, "a second LOCAL_INV of the same window");
    }

    @Test
    void invalidatingAWindowNeverBoundChangesNothing(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);

        invalidationOfAnUnboundWindow(pair, region, mw.rkey(), 625, "LOCAL_INV of a type 2 window never bound");
    }

    @Test
    void invalidatingAWindowAPeerInvalidatedChangesNothing(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(pair, mw, region, 0, 4096, Windows.remoteWrite(), 631);
        WorkCompletion recv = sendWithInvalidate(pair, pair.local().buffer(64), rkey, 632);
        assertEquals(rkey, recv.invalidatedRkey(), "invalidated_rkey of the receive");

        invalidationOfAnUnboundWindow(pair, region, rkey, 634, "a LOCAL_INV of a window a peer's SEND_WITH_INV invalidated");
    }

    /**
     * As above, with the window on the side whose completion queues are extended ones: the
     * receive that reports the peer's invalidation is read with {@code ibv_start_poll}.
     */
    @Test
    void invalidatingAWindowAPeerInvalidatedChangesNothingWithExtendedQueues(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair(new RcSpec().localExtendedCqs(WcField.STANDARD));
        ExtendedCompletionQueue sendCq = (ExtendedCompletionQueue) pair.local().sendCq();
        ExtendedCompletionQueue recvCq = (ExtendedCompletionQueue) pair.local().recvCq();
        Set<Access> bindable = Buffer.allRemoteAccess();
        bindable.add(Access.MW_BIND);
        Buffer region = bed.buffer(pair.local().pd(), Windows.REGION, bindable);
        Buffer sink = pair.local().buffer(64);
        Buffer source = pair.remote().buffer(64);
        MemoryWindow mw = bed.window(pair.local().pd(), MwType.TYPE_2);
        int rkey = MemoryWindow.incrementRkey(mw.rkey());
        pair.local().qp().postSend(new SendWorkRequest().wrId(641).signaled(true)
                .bindMw(mw, rkey, region.region(), region.remoteAddress(0), 4096, Access.toMask(Windows.remoteWrite())));
        expectSuccess(ExtendedCompletion.next(sendCq, "the type 2 bind"), 641, WcOpcode.BIND_MW);
        pair.local().postRecv(642, sink, 0, 64);
        pair.remote().qp().postSend(new SendWorkRequest().wrId(643).signaled(true).buffer(source.region(), 0, 16).sendWithInv(rkey));
        Expect.success(WcOpcode.SEND, 643, Completions.next(pair.remote().sendCq(), "the send with invalidate"), "SEND_WITH_INV");
        expectSuccess(ExtendedCompletion.next(recvCq, "the receive"), 642, WcOpcode.RECV);

        String what = "a LOCAL_INV of a window a peer's SEND_WITH_INV invalidated";
        try {
            pair.local().qp().postSend(new SendWorkRequest().wrId(644).signaled(true).localInvalidate(rkey));
            expectSuccess(ExtendedCompletion.next(sendCq, what), 644, WcOpcode.LOCAL_INV);
        } catch (VerbsException refused) {
            assertEquals(Errno.EINVAL, refused.error(), what + ", refused at the post: " + refused.getMessage());
        }
        pair.remote().qp().postSend(new SendWorkRequest().wrId(645).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(region.remoteAddress(0), rkey));
        Expect.status(WcStatus.REM_ACCESS_ERR, Completions.next(pair.remote().sendCq(), "a write through the window"),
                "write through the window after " + what);
        Bytes.assertFilled(region.memory(), (byte) 0, "the region behind the window");
    }

    private static void expectSuccess(ExtendedCompletion c, long wrId, WcOpcode opcode) {
        assertEquals(WcStatus.SUCCESS, c.status(), opcode + ": " + c);
        assertEquals(wrId, c.wrId(), opcode + ": wr_id of " + c);
        assertEquals(opcode, c.opcode(), "opcode of " + c);
    }

    private static void invalidationOfAnUnboundWindow(RcPair pair, Buffer region, int rkey, long wrId, String what) {
        try {
            pair.remote().qp().postSend(new SendWorkRequest().wrId(wrId).signaled(true).localInvalidate(rkey));
            Expect.success(WcOpcode.LOCAL_INV, wrId, Completions.next(pair.remote().sendCq(), what), what);
        } catch (VerbsException refused) {
            assertEquals(Errno.EINVAL, refused.error(), what + ", refused at the post: " + refused.getMessage());
        }
        Buffer source = pair.local().buffer(64);
        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), rkey, wrId + 1),
                "write through the window after " + what);
        Bytes.assertFilled(region.memory(), (byte) 0, "the region behind the window");
    }

    /**
     * The local side's SEND_WITH_INV of {@code rkey}, 16 bytes of {@code source} into a receive
     * posted for it ({@code wrId}; the send is {@code wrId + 1}); returns the receive's completion.
     */
    private static WorkCompletion sendWithInvalidate(RcPair pair, Buffer source, int rkey, long wrId) {
        pair.remote().postRecv(wrId, pair.remote().buffer(64), 0, 64);
        pair.local().qp().postSend(new SendWorkRequest().wrId(wrId + 1).signaled(true).buffer(source.region(), 0, 16).sendWithInv(rkey));
        Expect.success(WcOpcode.SEND, wrId + 1, Completions.next(pair.local().sendCq(), "the send with invalidate"), "SEND_WITH_INV");
        return Expect.success(WcOpcode.RECV, wrId, Completions.next(pair.remote().recvCq(), "the receive"), "receive");
    }

    @Test
    void sendWithInvalidateRevokesWindowAndReportsRkey(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(64);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(pair, mw, region, 0, 4096, Windows.remoteWrite(), 621);

        WorkCompletion recv = sendWithInvalidate(pair, source, rkey, 622);
        assertTrue(WcFlag.WITH_INV.isSet(recv.flags()), "IBV_WC_WITH_INV is set: " + recv);
        assertEquals(rkey, recv.invalidatedRkey(), "invalidated_rkey of the receive");
        assertEquals(16, recv.byteLength(), "byte_len of the receive");
        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), rkey, 624),
                "write through a remotely invalidated window");
    }

    @Test
    void deallocatingWindowRevokesIt(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        Buffer source = pair.local().buffer(64);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(pair, mw, region, 0, 4096, Windows.remoteWrite(), 631);

        bed.closeNow(mw);

        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(pair, source, 64, region.remoteAddress(0), rkey, 632),
                "write through a deallocated window");
    }

    @Test
    void windowRejectsAccessThroughAnotherQueuePair(Testbed bed) {
        Windows.requireType2(bed);
        RcPair bound = bed.rcPair();
        RcPair other = bed.rcPair(new RcSpec().sharePdsWith(bound));
        Buffer region = Windows.bindableRegion(bed, bound);
        Buffer source = bound.local().buffer(64);
        MemoryWindow mw = bed.window(bound.remote().pd(), MwType.TYPE_2);
        int rkey = Windows.bindType2(bound, mw, region, 0, 4096, Windows.remoteWrite(), 641);

        Expect.success(WcOpcode.RDMA_WRITE, 642, Windows.write(bound, source, 64, region.remoteAddress(0), rkey, 642),
                "write through the queue pair the window is bound to");
        Expect.status(WcStatus.REM_ACCESS_ERR, Windows.write(other, source, 64, region.remoteAddress(0), rkey, 643),
                "write through another queue pair of the same protection domain");
    }

    /**
     * SEND_WITH_INV naming an rkey that does not exist: the kernel rxe fails the receive
     * with IBV_WC_REM_INV_REQ_ERR and moves the receiving queue pair to the error state
     * (its responder's class J error); the sender's request is still acknowledged.
     */
    @Test
    void sendWithInvalidateOfUnknownRkeyFailsReceiver(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(64);
        Buffer sink = pair.remote().buffer(64);
        pair.remote().postRecv(651, sink, 0, 64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(652).signaled(true).buffer(source.region(), 0, 16)
                .sendWithInv(0x7E5A5A00));

        WorkCompletion recv = Expect.status(WcStatus.REM_INV_REQ_ERR, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive of a SEND_WITH_INV naming an unknown rkey");
        assertEquals(651, recv.wrId(), "wrId of the failed receive");
        QpStates.await(pair.remote().qp(), QpState.ERR, "receiver after an invalidation of an unknown rkey");
    }
}
