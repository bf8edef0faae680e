package dev.verbs4j.conformance.errors;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.RegisteredArena;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A {@link RegisteredArena} takes every key to its memory away before it frees it: after
 * close, a peer's write through the rkey of one of its regions, or of a window bound to
 * one, fails with REM_ACCESS_ERR on every provider. The arena lives on the local side; the
 * remote side is the peer that writes.
 */
@ConformanceSuite
class RegisteredArenaTest {

    private static Set<Access> rights(Access... extra) {
        Set<Access> access = Buffer.allRemoteAccess();
        access.addAll(Set.of(extra));
        return access;
    }

    /** The remote side writes {@code length} bytes of {@code source} to {@code address} under {@code rkey}. */
    private static WorkCompletion peerWrites(RcPair pair, Buffer source, long address, int rkey, long wrId) {
        pair.remote().qp().postSend(new SendWorkRequest().wrId(wrId).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(address, rkey));
        return Completions.next(pair.remote().sendCq(), "the peer's write under rkey 0x" + Integer.toHexString(rkey));
    }

    @Test
    void aWriteThroughTheKeyOfAClosedRegisteredArenasRegionIsRemoteAccessError(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 5);
        RegisteredArena arena = RegisteredArena.of(pair.local().pd(), rights());
        MemoryRegion region = arena.allocateRegion(4096);
        MemorySegment memory = region.memory();
        Expect.success(WcOpcode.RDMA_WRITE, 1, peerWrites(pair, source, region.address(), region.rkey(), 1),
                "a write into a live region of the arena");
        Bytes.assertSame(source.slice(0, 64), memory.asSlice(0, 64), "bytes the peer wrote");

        arena.close();

        assertFalse(memory.scope().isAlive(), "the arena's memory is freed");
        Expect.status(WcStatus.REM_ACCESS_ERR, peerWrites(pair, source, region.address(), region.rkey(), 2),
                "a write through the rkey of a closed arena's region");
    }

    @Test
    void aWindowBoundToARegisteredArenasRegionDiesWithIt(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.MEM_WINDOW);
        RcPair pair = bed.rcPair();
        Buffer source = pair.remote().buffer(4096);
        RegisteredArena arena = RegisteredArena.of(pair.local().pd(), rights(Access.MW_BIND));
        MemoryRegion region = arena.allocateRegion(16 * 1024);
        MemoryWindow mw = pair.local().pd().allocateMw(MwType.TYPE_1);
        int rkey = mw.bind(pair.local().qp(), 11, true, region, region.address() + 4096, 4096,
                EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ));
        Expect.success(WcOpcode.BIND_MW, 11, Completions.next(pair.local().sendCq(), "the bind"), "type 1 bind");
        Expect.success(WcOpcode.RDMA_WRITE, 12, peerWrites(pair, source, region.address() + 4096, rkey, 12),
                "a write through the window");

        arena.close();

        Expect.status(WcStatus.REM_ACCESS_ERR, peerWrites(pair, source, region.address() + 4096, rkey, 13),
                "a write through a window that was bound to a closed arena's region");
        assertDoesNotThrow(mw::close, "the arena deallocated the window; closing it again does nothing");
    }

    @Test
    void closingARegisteredArenaTwiceOrFromManyThreadsClosesItOnce(Testbed bed) throws InterruptedException {
        RegisteredArena arena = RegisteredArena.of(bed.pd(bed.local()), rights());
        arena.allocateRegion(4096);
        arena.allocateRegion(8192);
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger closed = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        Thread[] closers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            closers[i] = Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    arena.close();
                    closed.incrementAndGet();
                } catch (IllegalStateException alreadyClosed) {
                    refused.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        start.countDown();
        for (Thread t : closers) {
            t.join();
        }

        assertEquals(1, closed.get(), "one close closes the arena");
        assertEquals(threads - 1, refused.get(), "the others find it closed, as Arena.close says");
        assertThrows(IllegalStateException.class, arena::close, "a second close");
        assertThrows(IllegalStateException.class, () -> arena.allocate(64), "allocation from a closed arena");
        assertFalse(arena.scope().isAlive());
    }

    @Test
    void everyAllocationIsRegisteredWithTheArenasRights(Testbed bed) {
        try (RegisteredArena arena = RegisteredArena.of(bed.pd(bed.local()), rights())) {
            MemorySegment segment = arena.allocate(10_000, 64);
            MemoryRegion region = arena.regionOf(segment.asSlice(100, 200));

            assertEquals(segment.address(), region.localAddress());
            assertEquals(10_000, region.length());
            assertEquals(rights(), region.access());
            assertSame(region, arena.regionOf(segment));
            assertThrows(IllegalArgumentException.class, () -> arena.regionOf(bed.memory(64)), "memory of another arena");
        }
    }
}
