package dev.verbs4j.conformance.fuzz;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpState;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SharedReceiveQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Everything the fuzzer made on one device, by kind, with what it believes about each: the
 * memory behind a region, the state a queue pair was last moved to. The caps keep a long
 * run's footprint small; {@link #closeAll} closes every object, children first, and reports
 * what would not close.
 */
final class World {
    /** Memory the fuzzer allocated: an arena of its own, closed only when no live region covers it. */
    record Memory(Arena arena, MemorySegment segment) {
    }

    final Device device;
    final Outcomes outcomes;
    final Pool<DeviceContext> contexts = new Pool<>("context", 2);
    final Pool<ProtectionDomain> pds = new Pool<>("protection domain", 4);
    final Pool<Memory> memories = new Pool<>("arena", 4);
    final Pool<MemoryRegion> regions = new Pool<>("memory region", 12);
    final Pool<MemoryWindow> windows = new Pool<>("memory window", 6);
    final Pool<CompletionChannel> channels = new Pool<>("completion channel", 3);
    final Pool<CompletionQueue> cqs = new Pool<>("completion queue", 6);
    final Pool<SharedReceiveQueue> srqs = new Pool<>("shared receive queue", 3);
    final Pool<QueuePair> qps = new Pool<>("queue pair", 8);
    final Pool<AddressHandle> ahs = new Pool<>("address handle", 4);
    /** The memory behind each live region the fuzzer registered over its own memory. */
    final Map<MemoryRegion, Memory> regionMemory = new IdentityHashMap<>();
    /** The context each completion queue was made on. */
    final Map<CompletionQueue, DeviceContext> cqContext = new IdentityHashMap<>();
    /** The state each queue pair was last moved to by a modify that succeeded. */
    final Map<QueuePair, QpState> believedState = new IdentityHashMap<>();

    World(Device device, Outcomes outcomes) {
        this.device = device;
        this.outcomes = outcomes;
    }

    /** Whether a live region lies over {@code memory}: its arena must stay open until it is closed. */
    boolean inUse(Memory memory) {
        return regionMemory.containsValue(memory);
    }

    /** A live arena's segment, or null. */
    MemorySegment liveSegment(Random random) {
        Memory m = memories.pickLive(random);
        return m == null ? null : m.segment();
    }

    /**
     * Closes everything, children first, each kind in turn; a window may keep a region busy
     * until the window goes, so the kinds are tried until a round closes nothing more.
     *
     * @return what would not close, empty when all did
     */
    List<String> closeAll() {
        List<Pool<? extends AutoCloseable>> order = List.of(ahs, qps, windows, regions, srqs, cqs, channels, pds, contexts);
        Map<Object, String> failures = new HashMap<>();
        boolean progress = true;
        while (progress) {
            progress = false;
            failures.clear();
            for (Pool<? extends AutoCloseable> pool : order) {
                progress |= closeLive(pool, failures);
            }
        }
        for (Memory m : new ArrayList<>(memories.live())) {
            m.arena().close();
            memories.closed(m);
        }
        regionMemory.clear();
        cqContext.clear();
        believedState.clear();
        return new ArrayList<>(failures.values());
    }

    private <T extends AutoCloseable> boolean closeLive(Pool<T> pool, Map<Object, String> failures) {
        boolean closedAny = false;
        for (T object : new ArrayList<>(pool.live())) {
            try {
                object.close();
                pool.closed(object);
                regionMemory.remove(object);
                closedAny = true;
            } catch (Exception e) {
                failures.put(object, pool.kind() + ": " + e);
            }
        }
        return closedAny;
    }
}
