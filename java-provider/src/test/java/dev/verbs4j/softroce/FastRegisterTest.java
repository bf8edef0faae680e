package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fast registration (REG_MR) of page lists, its use by the peer, and its invalidation. */
class FastRegisterTest {
    private static final long IOVA = 0x7_0000_0100L;
    private static final int RIGHTS = Access.LOCAL_WRITE.value() | Access.REMOTE_WRITE.value() | Access.REMOTE_READ.value();

    private final SimulatedPair sim = new SimulatedPair(5);

    private WorkCompletion poll(RcPair.Side side) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> side.cq.poll(wc) == 1, 100_000), "no completion");
        return wc[0];
    }

    /** Pages 3, 0, 7 and 1 of B's buffer, in that order. */
    private static long[] pages(RcPair p) {
        long base = p.b.mr.localAddress();
        return new long[] {base + 3 * 4096, base, base + 7 * 4096, base + 4096};
    }

    @Test
    void aFastRegisteredPageListIsWrittenInPageOrderThenInvalidatedAndRegisteredAgain() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            MemoryRegion fr = p.b.pd.allocateFastRegMr(16);
            int key1 = MemoryWindow.incrementRkey(fr.rkey());
            p.b.qp.postSend(new SendWorkRequest().wrId(1).signaled(true)
                    .registerMr(fr, key1, pages(p), 4, 12, IOVA, 4 * 4096 - 0x100, RIGHTS));
            WorkCompletion reg = poll(p.b);
            assertEquals(WcStatus.SUCCESS, reg.status(), reg.toString());
            assertEquals(WcOpcode.REG_MR, reg.opcode());

            for (int i = 0; i < 10_000; i++) {
                p.a.buf.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 10_000).rdmaWrite(IOVA, key1));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            // Byte k of the region is byte (0x100 + k) of the page list: pages 3, 0, 7, 1.
            int[] order = {3, 0, 7, 1};
            for (int k = 0; k < 10_000; k++) {
                long at = 0x100 + k;
                long backing = order[(int) (at / 4096)] * 4096L + at % 4096;
                assertEquals((byte) (k * 7 + 1), p.b.buf.get(ValueLayout.JAVA_BYTE, backing), "byte " + k);
            }

            // The peer invalidates it with SEND_WITH_INV; the receive reports the key.
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(3).buffer(p.b.mr, 60_000, 64));
            p.a.qp.postSend(new SendWorkRequest().wrId(4).signaled(true).buffer(p.a.mr, 0, 16).sendWithInv(key1));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            WorkCompletion inv = poll(p.b);
            assertTrue(inv.withInv(), inv.toString());
            assertEquals(key1, inv.invalidatedRkey());

            // Registered again under the next key: the old key no longer works, the new one does.
            int key2 = MemoryWindow.incrementRkey(key1);
            p.b.qp.postSend(new SendWorkRequest().wrId(5).signaled(true)
                    .registerMr(fr, key2, pages(p), 4, 12, IOVA, 4 * 4096 - 0x100, RIGHTS));
            assertEquals(WcStatus.SUCCESS, poll(p.b).status());
            p.a.qp.postSend(new SendWorkRequest().wrId(6).signaled(true).buffer(p.a.mr, 0, 64).rdmaRead(IOVA, key2));
            assertEquals(WcStatus.SUCCESS, poll(p.a).status());
            p.a.qp.postSend(new SendWorkRequest().wrId(7).signaled(true).buffer(p.a.mr, 0, 64).rdmaWrite(IOVA, key1));
            assertEquals(WcStatus.REM_ACCESS_ERR, poll(p.a).status(), "the stale key is refused");
            fr.close();
        }
    }

    @Test
    void registeringAValidRegionAgainIsALocalQpOperationError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            MemoryRegion fr = p.b.pd.allocateFastRegMr(4);
            int key = MemoryWindow.incrementRkey(fr.rkey());
            SendWorkRequest reg = new SendWorkRequest().signaled(true).registerMr(fr, key, pages(p), 4, 12, IOVA, 4096, RIGHTS);
            p.b.qp.postSend(reg.wrId(1));
            assertEquals(WcStatus.SUCCESS, poll(p.b).status());
            p.b.qp.postSend(reg.wrId(2));
            assertEquals(WcStatus.LOC_QP_OP_ERR, poll(p.b).status());
            fr.close();
        }
    }

    @Test
    void pagesOutsideRegisteredMemoryAreRefused() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            MemoryRegion fr = p.b.pd.allocateFastRegMr(4);
            long[] stray = {p.b.mr.localAddress() + p.b.mr.length()};
            p.b.qp.postSend(new SendWorkRequest().wrId(1).signaled(true)
                    .registerMr(fr, MemoryWindow.incrementRkey(fr.rkey()), stray, 1, 12, IOVA, 4096, RIGHTS));
            assertEquals(WcStatus.LOC_QP_OP_ERR, poll(p.b).status());
            fr.close();
        }
    }
}
