package dev.verbs4j.softroce;

import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

import static dev.verbs4j.Access.LOCAL_WRITE;
import static dev.verbs4j.Access.REMOTE_READ;
import static dev.verbs4j.Access.REMOTE_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registered memory and its arena: the engine's threads touch registered memory, so memory
 * confined to one thread is refused, and so is memory already freed; memory freed while
 * registered is reached by no request afterwards (the request fails as one naming an invalid
 * key would, and the engine goes on).
 */
class RegistrationLifetimeTest {
    private final SimulatedPair sim = new SimulatedPair(11);

    private static WorkCompletion poll(SimulatedPair sim, dev.verbs4j.CompletionQueue cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> cq.poll(wc) == 1, 10_000), "no completion");
        return wc[0];
    }

    @Test
    void memoryConfinedToOneThreadIsRefused() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena confined = Arena.ofConfined()) {
            MemorySegment memory = confined.allocate(4096, 4096);
            VerbsException e = assertThrows(VerbsException.class,
                    () -> p.b.pd.registerMemory(memory, EnumSet.of(LOCAL_WRITE, REMOTE_WRITE)));
            assertEquals(Errno.EINVAL, e.error());
            assertTrue(e.getMessage().contains("confined"), e.getMessage());
        }
    }

    @Test
    void memoryOfAClosedArenaIsRefused() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            MemorySegment freed;
            try (Arena arena = Arena.ofShared()) {
                freed = arena.allocate(4096, 4096);
            }
            VerbsException e = assertThrows(VerbsException.class,
                    () -> p.b.pd.registerMemory(freed, EnumSet.of(LOCAL_WRITE, REMOTE_WRITE)));
            assertEquals(Errno.EINVAL, e.error());
        }
    }

    @Test
    void aWriteIntoMemoryFreedWhileRegisteredIsARemoteAccessErrorAndTheEngineGoesOn() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            Arena arena = Arena.ofShared();
            MemoryRegion target = p.b.pd.registerMemory(arena.allocate(4096, 4096), EnumSet.of(LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ));
            arena.close();

            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(p.a.mr, 0, 64)
                    .rdmaWrite(target.address(), target.rkey()));

            assertEquals(WcStatus.REM_ACCESS_ERR, poll(sim, p.a.cq).status());
            // The responder's engine took no fault: it raised no fatal device event.
            assertEquals(java.util.Optional.empty(), p.b.ctx.nextAsyncEvent(java.time.Duration.ZERO)
                    .filter(ev -> ev.type() == dev.verbs4j.AsyncEventType.DEVICE_FATAL));
            target.close();
        }
    }

    @Test
    void aSendFromMemoryFreedWhileRegisteredIsRefusedWhenPosted() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            Arena arena = Arena.ofShared();
            MemoryRegion source = p.a.pd.registerMemory(arena.allocate(4096, 4096), EnumSet.of(LOCAL_WRITE));
            arena.close();

            VerbsException e = assertThrows(VerbsException.class, () -> p.a.qp.postSend(new SendWorkRequest().wrId(3)
                    .signaled(true).buffer(source, 0, 64).rdmaWrite(p.b.mr.address(), p.b.mr.rkey())));
            assertEquals(Errno.EFAULT, e.error());
            assertEquals(1, p.a.ctx.freedMemoryRegions());
            source.close();
            assertEquals(1, p.a.ctx.freedMemoryRegions(), "a region is counted once");
        }
    }

    @Test
    void aRegionWhoseMemoryWasFreedIsCountedWhenItIsDeregistered() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            Arena arena = Arena.ofShared();
            MemoryRegion region = p.b.pd.registerMemory(arena.allocate(4096, 4096), EnumSet.of(LOCAL_WRITE));
            arena.close();
            assertEquals(0, p.b.ctx.freedMemoryRegions());

            region.close();

            assertEquals(1, p.b.ctx.freedMemoryRegions());
        }
    }

    @Test
    void closingARegisteredArenaInvalidatesFastRegisteredRegionsOverItsMemoryBeforeFreeingIt() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            dev.verbs4j.RegisteredArena arena = dev.verbs4j.RegisteredArena.of(p.b.pd, EnumSet.of(LOCAL_WRITE, REMOTE_WRITE));
            MemoryRegion backing = arena.allocateRegion(8192);
            MemoryRegion fast = p.b.pd.allocateFastRegMr(2);
            int key = dev.verbs4j.MemoryWindow.incrementRkey(fast.rkey());
            long[] pages = {backing.localAddress() + 4096, backing.localAddress()};
            p.b.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).registerMr(fast, key, pages, 2, 12, 0x40_0000L, 8192,
                    LOCAL_WRITE.value() | REMOTE_WRITE.value()));
            assertEquals(WcStatus.SUCCESS, poll(sim, p.b.cq).status());
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 64).rdmaWrite(0x40_0000L, key));
            assertEquals(WcStatus.SUCCESS, poll(sim, p.a.cq).status());

            arena.close();

            p.a.qp.postSend(new SendWorkRequest().wrId(3).signaled(true).buffer(p.a.mr, 0, 64).rdmaWrite(0x40_0000L, key));
            assertEquals(WcStatus.REM_ACCESS_ERR, poll(sim, p.a.cq).status());
            assertEquals(0, p.b.ctx.freedMemoryRegions(), "the fast-registered region was invalidated before the memory was freed");
            fast.close();
        }
    }
}
