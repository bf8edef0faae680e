package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.wire.OpcodeTable;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Proxy;
import java.util.EnumSet;

import static dev.verbs4j.Access.LOCAL_WRITE;
import static dev.verbs4j.Access.MW_BIND;
import static dev.verbs4j.Access.REMOTE_READ;
import static dev.verbs4j.Access.REMOTE_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Local misuse and unlucky timing end as the completion status or error libibverbs would
 * give, never as an exception inside the engine: each case once threw out of
 * {@code doWork}, which the simulated pair passes straight to the test.
 */
class MisuseDoesNotFaultTheEngineTest {
    private final WatchingLink[] links = new WatchingLink[2];
    private int linkCount;
    private final SimulatedPair sim = new SimulatedPair(17, l -> links[linkCount++] = new WatchingLink(l));

    private WorkCompletion poll(CompletionQueue cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> cq.poll(wc) == 1, 10_000), "no completion");
        return wc[0];
    }

    @Test
    void memoryFreedBetweenThePacketsOfAWriteIsARemoteAccessError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            Arena arena = Arena.ofShared();
            MemoryRegion target = p.b.pd.registerMemory(arena.allocate(1 << 15, 4096), EnumSet.of(LOCAL_WRITE, REMOTE_WRITE));
            WatchingLink linkA = links[0];
            linkA.hold = v -> v.has(OpcodeTable.WRITE) && !v.has(OpcodeTable.FIRST);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 1 << 14)
                    .rdmaWrite(target.address(), target.rkey()));
            assertTrue(sim.runUntil(() -> linkA.heldCount() > 0, 100), "the write's later packets are held");
            for (int i = 0; i < 4; i++) {
                sim.step();
            }
            arena.close();
            linkA.hold = v -> false;
            linkA.release();

            assertEquals(WcStatus.REM_ACCESS_ERR, poll(p.a.cq).status());
            assertEquals(1, p.b.ctx.freedMemoryRegions());
            target.close();
        }
    }

    @Test
    void anAtomicResultStraddlingTwoPagesOfAFastRegisteredRegionLandsInBoth() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            // Two pages from two separate allocations: the result's 8 bytes cross from one to the other.
            MemorySegment first = arena.allocate(4096, 4096);
            MemorySegment second = arena.allocate(4096, 4096);
            MemoryRegion r1 = p.a.pd.registerMemory(first, EnumSet.of(LOCAL_WRITE));
            MemoryRegion r2 = p.a.pd.registerMemory(second, EnumSet.of(LOCAL_WRITE));
            MemoryRegion fast = p.a.pd.allocateFastRegMr(2);
            int key = MemoryWindow.incrementRkey(fast.lkey());
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).registerMr(fast, key,
                    new long[] {first.address(), second.address()}, 2, 12, 0x10_0000L, 8192, LOCAL_WRITE.value()));
            assertEquals(WcStatus.SUCCESS, poll(p.a.cq).status());
            p.b.buf.set(ValueLayout.JAVA_LONG, 0, 0x1122334455667788L);

            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(fast, 4092, 8)
                    .fetchAndAdd(p.b.mr.address(), p.b.mr.rkey(), 1));

            WorkCompletion wc = poll(p.a.cq);
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            long landed = (first.get(ValueLayout.JAVA_INT_UNALIGNED, 4092) & 0xffffffffL)
                    | ((long) second.get(ValueLayout.JAVA_INT_UNALIGNED, 0) << 32);
            assertEquals(0x1122334455667788L, landed);
            fast.close();
            r1.close();
            r2.close();
        }
    }

    @Test
    void aUdSendWithAnAddressHandleOfAnotherProviderIsRefusedWhenPosted() {
        try (var ctx = sim.deviceA.open(); Arena arena = Arena.ofShared()) {
            var pd = ctx.allocatePd();
            CompletionQueue cq = ctx.createCq(8);
            QueuePair ud = pd.createQp(new QpInitAttributes(QpType.UD, cq));
            ud.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
            ud.modify(new QpAttributes().state(QpState.RTR));
            ud.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
            MemoryRegion mr = pd.registerMemory(arena.allocate(4096), EnumSet.of(LOCAL_WRITE));
            AddressHandle foreign = (AddressHandle) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {AddressHandle.class}, (proxy, method, args) -> null);

            VerbsException e = assertThrows(VerbsException.class, () -> ud.postSend(new SendWorkRequest().wrId(1)
                    .signaled(true).buffer(mr, 0, 64).ud(foreign, 0x11, 0x11111111).send()));
            assertEquals(Errno.EINVAL, e.error());
            assertEquals(0, sim.deviceA.engine().doWork(sim.nowNs), "nothing was queued");
            ud.close();
            mr.close();
            cq.close();
            pd.close();
        }
    }

    @Test
    void readOnlyMemoryIsNotRegisteredForWriting() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment readOnly = arena.allocate(4096, 4096).asReadOnly();
            VerbsException e = assertThrows(VerbsException.class,
                    () -> p.b.pd.registerMemory(readOnly, EnumSet.of(LOCAL_WRITE, REMOTE_WRITE)));
            assertEquals(Errno.EFAULT, e.error());
            p.b.pd.registerMemory(readOnly, EnumSet.of(REMOTE_READ)).close();
        }
    }

    @Test
    void aFastRegistrationForWritingOverReadOnlyMemoryFails() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            MemorySegment readOnly = arena.allocate(4096, 4096).asReadOnly();
            MemoryRegion backing = p.b.pd.registerMemory(readOnly, EnumSet.of(REMOTE_READ));
            MemoryRegion fast = p.b.pd.allocateFastRegMr(1);
            int key = MemoryWindow.incrementRkey(fast.rkey());
            p.b.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).registerMr(fast, key,
                    new long[] {readOnly.address()}, 1, 12, 0x20_0000L, 4096,
                    LOCAL_WRITE.value() | REMOTE_WRITE.value()));

            assertEquals(WcStatus.LOC_QP_OP_ERR, poll(p.b.cq).status());
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 64).rdmaWrite(0x20_0000L, key));
            assertTrue(poll(p.a.cq).status() != WcStatus.SUCCESS, "nothing lands in read-only memory");
            fast.close();
            backing.close();
        }
    }

    @Test
    void aBindThatRunsAfterItsRegionWasDeregisteredFails() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofShared()) {
            MemoryRegion region = p.b.pd.registerMemory(arena.allocate(8192, 4096),
                    EnumSet.of(LOCAL_WRITE, REMOTE_WRITE, MW_BIND));
            MemoryWindow mw = p.b.pd.allocateMw(MwType.TYPE_1);
            mw.bind(p.b.qp, 1, true, region, region.address(), 4096, EnumSet.of(REMOTE_WRITE));
            // The engine has not run the bind yet: the region has no bound window, so it deregisters.
            region.close();

            WorkCompletion bind = poll(p.b.cq);
            assertEquals(WcOpcode.BIND_MW, bind.opcode());
            assertEquals(WcStatus.MW_BIND_ERR, bind.status(), "the window grants nothing over deregistered memory");
            mw.close();
        }
    }
}
