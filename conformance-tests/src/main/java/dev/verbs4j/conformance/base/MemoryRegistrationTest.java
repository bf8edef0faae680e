package dev.verbs4j.conformance.base;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Registering memory ({@code ibv_reg_mr}): two disjoint ranges of one allocation are two
 * regions, each with its own keys and its own start and length, and each reaches its own bytes.
 */
@ConformanceSuite
class MemoryRegistrationTest {

    @Test
    void disjointRangesOfOneBufferGetTheirOwnKeys(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemorySegment buffer = bed.memory(2 * Testbed.PAGE);
        MemorySegment first = buffer.asSlice(0, Testbed.PAGE);
        MemorySegment second = buffer.asSlice(Testbed.PAGE, Testbed.PAGE);

        MemoryRegion a = bed.track(pd.registerMemory(first, EnumSet.of(Access.LOCAL_WRITE)));
        MemoryRegion b = bed.track(pd.registerMemory(second, EnumSet.of(Access.LOCAL_WRITE)));

        assertNotEquals(a.lkey(), b.lkey(), "the two regions' lkeys");
        assertEquals(buffer.address(), a.localAddress(), "the first region's start");
        assertEquals(buffer.address() + Testbed.PAGE, b.localAddress(), "the second region's start");
        assertEquals(Testbed.PAGE, a.length(), "the first region's length");
        assertEquals(Testbed.PAGE, b.length(), "the second region's length");
        a.memory().fill((byte) 'a');
        b.memory().fill((byte) 'b');
        Bytes.assertFilled(first, (byte) 'a', "the first page, written through the first region");
        Bytes.assertFilled(second, (byte) 'b', "the second page, written through the second region");
    }
}
