package dev.verbs4j.conformance.access;

import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Testbed;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The remote memory a case aims at: six pages filled with a known pattern, of which the
 * middle four are registered. Every byte a request may not touch is a guard: afterwards
 * the whole memory must equal the pattern with exactly the change the case expects, so a
 * byte placed outside the granted range, or a refused request that partly executed, shows
 * as the first differing offset.
 */
final class GuardedTarget {
    static final long PAGE = Testbed.PAGE;
    static final int REGION_PAGES = 4;
    /** The registered bytes: pages 1 to 4 of the six, so the pages either side are guards. */
    static final long REGION_OFFSET = PAGE;
    static final long REGION_LENGTH = REGION_PAGES * PAGE;
    static final long MEMORY_LENGTH = REGION_LENGTH + 2 * PAGE;

    private final MemorySegment memory;
    private final MemorySegment expected;

    GuardedTarget(Testbed bed, int seed) {
        memory = Bytes.fill(bed.memory(MEMORY_LENGTH), seed);
        expected = MemorySegment.ofArray(new byte[(int) MEMORY_LENGTH]);
        expected.copyFrom(memory);
    }

    /** The four registered pages. */
    MemorySegment region() {
        return memory.asSlice(REGION_OFFSET, REGION_LENGTH);
    }

    /** The bytes at {@code offset} of the memory. */
    MemorySegment slice(long offset, long length) {
        return memory.asSlice(offset, length);
    }

    /** The 8 bytes at {@code offset} as the case expects them now, in native order (as atomics see them). */
    long expectedLong(long offset) {
        return offset >= 0 && offset + 8 <= MEMORY_LENGTH ? expected.get(ValueLayout.JAVA_LONG_UNALIGNED, offset) : 0;
    }

    void expectBytes(long offset, MemorySegment bytes) {
        expected.asSlice(offset, bytes.byteSize()).copyFrom(bytes);
    }

    void expectLong(long offset, long value) {
        expected.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
    }

    /** Asserts every byte of the memory, guards included, is what the case expects. */
    void assertAsExpected(String what) {
        Bytes.assertSame(expected, memory, what);
    }
}
