package dev.verbs4j.softroce.memory;

import dev.verbs4j.Access;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy into or out of a region whose memory another thread frees between the engine's
 * key check and the copy reports it (the request then fails as one naming an invalid key)
 * instead of throwing into the engine.
 */
class RegionCopyTest {

    @Test
    void aCopyIntoOrOutOfFreedMemoryReportsItInsteadOfThrowing() {
        MemoryTable table = new MemoryTable(8);
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(4096, 4096);
        Region region = table.registerRegion(1, memory, memory.address(), Access.LOCAL_WRITE.value());
        try (Arena other = Arena.ofConfined()) {
            MemorySegment bytes = other.allocate(64);
            assertTrue(region.copyIn(0, bytes, 0, 64));
            arena.close();

            assertFalse(region.copyIn(0, bytes, 0, 64));
            assertFalse(region.copyOut(0, bytes, 0, 64));
        }
    }
}
