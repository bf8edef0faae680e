package dev.verbs4j.softroce;

import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpState;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.Counters;
import dev.verbs4j.softroce.wire.OpcodeTable;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;

import static dev.verbs4j.Access.LOCAL_WRITE;
import static dev.verbs4j.Access.MW_BIND;
import static dev.verbs4j.Access.REMOTE_READ;
import static dev.verbs4j.Access.REMOTE_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a peer can reach while the application changes what it granted: a region invalidated
 * and registered again under the same key, a window bound again, a region whose windows are
 * still bound, a window at the top of the signed address range, and a receive whose own keys
 * are bad. A peer reaches only what is granted when each packet arrives, and no change faults
 * the engine.
 */
class GrantChangesTest {
    private static final long IOVA = 0x100_0000L;

    private final WatchingLink[] links = new WatchingLink[2];
    private int linkCount;
    private final SimulatedPair sim = new SimulatedPair(17, l -> links[linkCount++] = new WatchingLink(l));

    private WorkCompletion poll(RcPair.Side side) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> side.cq.poll(wc) == 1, 10_000), "no completion");
        return wc[0];
    }

    private void expect(WcStatus status, WcOpcode opcode, RcPair.Side side) {
        WorkCompletion wc = poll(side);
        assertEquals(status, wc.status(), wc.toString());
        assertEquals(opcode, wc.opcode(), wc.toString());
    }

    /** Holds back A's WRITE packets after the first, lets the first one land, and returns how many wait. */
    private int landFirstPacketOnly() {
        WatchingLink a = links[0];
        sim.runUntil(() -> a.heldCount() > 0, 100);
        sim.runUntil(() -> false, 4);
        return a.heldCount();
    }

    private void releaseHeld() {
        links[0].hold = v -> false;
        links[0].release();
    }

    private long engineFaults() {
        return sim.deviceB.engine().counters().get(Counters.ENGINE_FAULTS);
    }

    @Test
    void aWriteStopsWhenItsKeyIsRegisteredAgainOverSmallerMemory() {
        try (RcPair p = sim.connect(1 << 17, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment large = arena.allocate(65536, 65536);
            MemorySegment small = arena.allocate(4096, 4096);
            MemoryRegion largeMr = p.b.pd.registerMemory(large, EnumSet.of(LOCAL_WRITE));
            MemoryRegion smallMr = p.b.pd.registerMemory(small, EnumSet.of(LOCAL_WRITE));
            MemoryRegion fast = p.b.pd.allocateFastRegMr(1);
            int key = MemoryWindow.incrementRkey(fast.lkey());
            int rights = LOCAL_WRITE.value() | REMOTE_WRITE.value();
            p.b.qp.postSend(new SendWorkRequest().wrId(1).signaled(true)
                    .registerMr(fast, key, new long[] {large.address()}, 1, 16, IOVA, 65536, rights));
            expect(WcStatus.SUCCESS, WcOpcode.REG_MR, p.b);

            links[0].hold = v -> v.has(OpcodeTable.WRITE) && !v.has(OpcodeTable.FIRST);
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 65536).rdmaWrite(IOVA, key));
            assertEquals(15, landFirstPacketOnly(), "the write's packets after its first");
            p.b.qp.postSend(new SendWorkRequest().wrId(3).signaled(true).localInvalidate(key));
            expect(WcStatus.SUCCESS, WcOpcode.LOCAL_INV, p.b);
            // The same key, now one 4 KiB page: the rest of the write lies outside it.
            p.b.qp.postSend(new SendWorkRequest().wrId(4).signaled(true)
                    .registerMr(fast, key, new long[] {small.address()}, 1, 12, IOVA, 4096, rights));
            expect(WcStatus.SUCCESS, WcOpcode.REG_MR, p.b);
            long faults = engineFaults();
            releaseHeld();

            expect(WcStatus.REM_ACCESS_ERR, WcOpcode.RDMA_WRITE, p.a);
            assertEquals(faults, engineFaults(), "the engine did not fault");
            assertEquals(-1, small.mismatch(arena.allocate(4096)), "nothing reached the memory registered second");
            fast.close();
            smallMr.close();
            largeMr.close();
        }
    }

    @Test
    void aWriteStopsWhenItsWindowIsBoundAgainElsewhereUnderTheSameKey() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment memory = arena.allocate(1 << 16, 4096);
            MemoryRegion region = p.b.pd.registerMemory(memory, EnumSet.of(LOCAL_WRITE, MW_BIND));
            MemoryWindow window = p.b.pd.allocateMw(MwType.TYPE_2);
            int rkey = MemoryWindow.incrementRkey(window.rkey());
            p.b.qp.postSend(new SendWorkRequest().wrId(1).signaled(true)
                    .bindMw(window, rkey, region, region.address(), 16384, REMOTE_WRITE.value()));
            expect(WcStatus.SUCCESS, WcOpcode.BIND_MW, p.b);

            links[0].hold = v -> v.has(OpcodeTable.WRITE) && !v.has(OpcodeTable.FIRST);
            p.a.buf.asSlice(0, 16384).fill((byte) 0x5A);
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 16384).rdmaWrite(region.address(), rkey));
            assertEquals(3, landFirstPacketOnly(), "the write's packets after its first");
            p.b.qp.postSend(new SendWorkRequest().wrId(3).signaled(true).localInvalidate(rkey));
            expect(WcStatus.SUCCESS, WcOpcode.LOCAL_INV, p.b);
            // Bound again with the same key, to other bytes and for reading only.
            p.b.qp.postSend(new SendWorkRequest().wrId(4).signaled(true)
                    .bindMw(window, rkey, region, region.address() + 32768, 4096, REMOTE_READ.value()));
            expect(WcStatus.SUCCESS, WcOpcode.BIND_MW, p.b);
            releaseHeld();

            expect(WcStatus.REM_ACCESS_ERR, WcOpcode.RDMA_WRITE, p.a);
            for (long i = 4096; i < memory.byteSize(); i++) {
                assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " was written after the window moved");
            }
            window.close();
            region.close();
        }
    }

    /** A page registered on B, a fast-registered region over it at {@link #IOVA}, and a type 2 window on all of it. */
    private record WindowedFastRegion(MemoryRegion backing, MemoryRegion fast, int key, MemoryWindow window, int windowKey) {
    }

    private WindowedFastRegion windowedFastRegion(RcPair p, Arena arena) {
        MemorySegment page = arena.allocate(4096, 4096);
        MemoryRegion backing = p.b.pd.registerMemory(page, EnumSet.of(LOCAL_WRITE));
        MemoryRegion fast = p.b.pd.allocateFastRegMr(1);
        int key = MemoryWindow.incrementRkey(fast.lkey());
        p.b.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).registerMr(fast, key, new long[] {page.address()}, 1, 12,
                IOVA, 4096, LOCAL_WRITE.value() | MW_BIND.value()));
        expect(WcStatus.SUCCESS, WcOpcode.REG_MR, p.b);
        MemoryWindow window = p.b.pd.allocateMw(MwType.TYPE_2);
        int windowKey = MemoryWindow.incrementRkey(window.rkey());
        p.b.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).bindMw(window, windowKey, fast, IOVA, 4096, REMOTE_WRITE.value()));
        expect(WcStatus.SUCCESS, WcOpcode.BIND_MW, p.b);
        return new WindowedFastRegion(backing, fast, key, window, windowKey);
    }

    @Test
    void aFastRegisteredRegionWithAWindowBoundCannotBeInvalidated() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            WindowedFastRegion f = windowedFastRegion(p, arena);

            // As the kernel rxe: a region with windows bound stays as it is, and the QP errs.
            p.b.qp.postSend(new SendWorkRequest().wrId(3).signaled(true).localInvalidate(f.key()));
            expect(WcStatus.LOC_QP_OP_ERR, WcOpcode.LOCAL_INV, p.b);
            assertEquals(QpState.ERR, p.b.qp.state());
            f.window().close();
            f.fast().close();
            f.backing().close();
        }
    }

    @Test
    void windowsOnAFastRegisteredRegionGoWithTheMemoryUnderIt() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            WindowedFastRegion f = windowedFastRegion(p, arena);
            MemorySegment other = arena.allocate(4096, 4096);
            MemoryRegion otherMr = p.b.pd.registerMemory(other, EnumSet.of(LOCAL_WRITE));

            // The memory under the fast-registered region is deregistered: the region and its
            // window go. The region registered again over other memory grants no remote right.
            f.backing().close();
            int key2 = MemoryWindow.incrementRkey(f.key());
            p.b.qp.postSend(new SendWorkRequest().wrId(3).signaled(true).registerMr(f.fast(), key2, new long[] {other.address()}, 1, 12,
                    IOVA, 4096, LOCAL_WRITE.value()));
            expect(WcStatus.SUCCESS, WcOpcode.REG_MR, p.b);
            p.a.buf.asSlice(0, 64).fill((byte) 0x3C);
            p.a.qp.postSend(new SendWorkRequest().wrId(4).signaled(true).buffer(p.a.mr, 0, 64).rdmaWrite(IOVA, f.windowKey()));

            expect(WcStatus.REM_ACCESS_ERR, WcOpcode.RDMA_WRITE, p.a);
            assertEquals(-1, other.mismatch(arena.allocate(4096)), "nothing reached memory registered without remote rights");
            f.window().close();
            f.fast().close();
            otherMr.close();
        }
    }

    @Test
    void aWindowRangeIsComparedAsUnsignedAddresses() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment memory = arena.allocate(8192, 4096);
            long iova = 0x7FFF_FFFF_FFFF_F000L;
            MemoryRegion region = p.b.pd.registerMemory(memory, iova, EnumSet.of(LOCAL_WRITE, MW_BIND));
            MemoryWindow window = p.b.pd.allocateMw(MwType.TYPE_1);
            // The window is the region's second page: [2^63, 2^63 + 4096).
            int rkey = window.bind(p.b.qp, 1, true, region, 0x8000_0000_0000_0000L, 4096, EnumSet.of(REMOTE_WRITE));
            expect(WcStatus.SUCCESS, WcOpcode.BIND_MW, p.b);

            p.a.buf.asSlice(0, 64).fill((byte) 0x66);
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 64).rdmaWrite(iova, rkey));
            expect(WcStatus.REM_ACCESS_ERR, WcOpcode.RDMA_WRITE, p.a);
            assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, 0), "the page below the window was not written");
            window.close();
            region.close();
        }
    }

    @Test
    void aReceiveWithAnotherDomainsKeyIsALocalProtectionError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            ProtectionDomain other = p.b.ctx.allocatePd();
            MemorySegment foreignMemory = arena.allocate(4096, 4096);
            MemoryRegion foreign = other.registerMemory(foreignMemory, EnumSet.of(LOCAL_WRITE));
            p.b.qp.postRecv(new ReceiveWorkRequest().wrId(7).buffer(foreign, 0, 256));
            p.a.buf.asSlice(0, 64).fill((byte) 0x42);
            p.a.qp.postSend(new SendWorkRequest().wrId(8).signaled(true).buffer(p.a.mr, 0, 64).send());

            // Class A: the receive fails as a local protection error, the sender hears a
            // remote operational error, and the receiving QP errs.
            expect(WcStatus.LOC_PROT_ERR, WcOpcode.RECV, p.b);
            expect(WcStatus.REM_OP_ERR, WcOpcode.SEND, p.a);
            assertEquals(QpState.ERR, p.b.qp.state());
            assertEquals(0, foreignMemory.get(ValueLayout.JAVA_BYTE, 0), "another domain's memory was not written");
            foreign.close();
            other.close();
        }
    }
}
