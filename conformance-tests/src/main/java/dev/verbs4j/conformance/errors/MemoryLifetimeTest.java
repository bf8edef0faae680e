package dev.verbs4j.conformance.errors;

import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.RcPair;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Memory that is no longer alive is not registered: once its arena is closed, the bytes
 * belong to the allocator again, and a region over them would let a peer write into
 * whatever the process puts there next. Both providers refuse it with EINVAL. Memory freed
 * while registered is found where the provider can look: a work request naming its region
 * is refused with EFAULT and the region is invalidated (a peer's write through its rkey
 * then fails with REM_ACCESS_ERR); an empty poll finds it too, as does deregistering it. Memory of an automatic
 * arena stays reachable while its region is.
 */
@ConformanceSuite
class MemoryLifetimeTest {

    @Test
    void registeringMemoryOfAClosedArenaFailsWithEinval(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemorySegment freed;
        try (Arena arena = Arena.ofShared()) {
            freed = arena.allocate(4096, Testbed.PAGE);
        }

        Expect.errno(Errno.EINVAL, () -> bed.track(pd.registerMemory(freed, Buffer.allRemoteAccess())),
                "reg_mr over memory whose arena is closed");
    }

    /** The remote side writes 64 bytes to {@code address} under {@code rkey}. */
    private static dev.verbs4j.WorkCompletion peerWrites(RcPair pair, Buffer source, long address, int rkey, long wrId) {
        pair.remote().qp().postSend(new SendWorkRequest().wrId(wrId).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(address, rkey));
        return Completions.next(pair.remote().sendCq(), "the peer's write");
    }

    @Test
    void aRequestNamingMemoryFreedWhileRegisteredIsRefusedAndThePeerLosesAccess(Testbed bed) {
        RcPair pair = bed.rcPair();
        DeviceContext context = pair.local().side().context();
        long foundBefore = context.freedMemoryRegions();
        Buffer source = pair.remote().buffer(4096);
        Arena arena = Arena.ofShared();
        MemoryRegion region = bed.track(pair.local().pd().registerMemory(arena.allocate(4096, Testbed.PAGE),
                Buffer.allRemoteAccess()));
        arena.close();

        Expect.errno(Errno.EFAULT, () -> pair.local().qp().postSend(new SendWorkRequest().wrId(21).signaled(true)
                .buffer(region, 0, 64).send()), "a send from memory freed while registered");
        Expect.errno(Errno.EFAULT, () -> pair.local().qp().postRecv(new ReceiveWorkRequest().wrId(22)
                .buffer(region, 0, 64)), "a receive into memory freed while registered");
        assertEquals(foundBefore + 1, context.freedMemoryRegions(), "the region is found once");
        Expect.status(WcStatus.REM_ACCESS_ERR, peerWrites(pair, source, region.address(), region.rkey(), 23),
                "a peer's write through the rkey of a region found over freed memory");
        bed.closeNow(region);
        assertEquals(foundBefore + 1, context.freedMemoryRegions(), "and counted once");
    }

    @Test
    void memoryFreedWhileRegisteredIsFoundByPollingAndThePeerLosesAccess(Testbed bed) {
        RcPair pair = bed.rcPair();
        DeviceContext context = pair.local().side().context();
        long foundBefore = context.freedMemoryRegions();
        Buffer source = pair.remote().buffer(4096);
        Arena arena = Arena.ofShared();
        MemoryRegion region = bed.track(pair.local().pd().registerMemory(arena.allocate(4096, Testbed.PAGE),
                Buffer.allRemoteAccess()));
        arena.close();

        dev.verbs4j.WorkCompletion[] none = {new dev.verbs4j.WorkCompletion()};
        for (int polls = 0; polls < 1_000_000 && context.freedMemoryRegions() == foundBefore; polls++) {
            assertEquals(0, pair.local().sendCq().poll(none), "nothing completes");
        }

        assertEquals(foundBefore + 1, context.freedMemoryRegions(), "empty polls find the region");
        Expect.status(WcStatus.REM_ACCESS_ERR, peerWrites(pair, source, region.address(), region.rkey(), 41),
                "a peer's write through the rkey of a region found over freed memory");
        bed.closeNow(region);
    }

    @Test
    void aRegionDeregisteredAfterItsMemoryWasFreedIsCounted(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        DeviceContext context = bed.local().context();
        long foundBefore = context.freedMemoryRegions();
        Arena arena = Arena.ofShared();
        MemoryRegion region = bed.track(pd.registerMemory(arena.allocate(4096, Testbed.PAGE), Buffer.allRemoteAccess()));
        arena.close();

        bed.closeNow(region);

        assertEquals(foundBefore + 1, context.freedMemoryRegions());
    }

    @Test
    void automaticArenaMemoryStaysReachableWhileItsRegionIs(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 9);
        MemorySegment memory = Arena.ofAuto().allocate(4096, Testbed.PAGE);
        WeakReference<MemorySegment.Scope> scope = new WeakReference<>(memory.scope());
        MemoryRegion region = bed.track(pair.local().pd().registerMemory(memory, Buffer.allRemoteAccess()));
        memory = null;
        for (int i = 0; i < 3; i++) {
            System.gc();
        }

        assertNotNull(scope.get(), "the region keeps its automatic arena's memory");
        Expect.success(WcOpcode.RDMA_WRITE, 31, peerWrites(pair, source, region.address(), region.rkey(), 31),
                "a write into automatic memory whose only holder is its region");
        Bytes.assertSame(source.slice(0, 64), region.memory().asSlice(0, 64), "bytes the peer wrote");
    }
}
