package dev.verbs4j.softroce;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One native allocation cut into slices with guard bytes before, between and after them,
 * so that a test can register some slices as regions and later prove that nothing outside
 * the slices the remote side may write to has changed: not the guards, not the regions
 * without remote write rights, not memory that was never registered.
 *
 * <pre>
 * | guard | slice 0 | guard | slice 1 | guard | ... | slice n-1 | guard |
 * </pre>
 */
final class GuardedMemory {
    static final int GUARD = 256;

    private final MemorySegment block;
    private final MemorySegment snapshot;
    private final List<MemorySegment> slices = new ArrayList<>();
    /** Pairs of (offset, length) in the block that must never change. */
    private final List<long[]> protectedRanges = new ArrayList<>();

    /**
     * Lays out slices of {@code sizes} bytes (each at a 64-byte aligned offset) and fills the
     * whole block with seeded random bytes. {@code writable[i]} says whether slice {@code i}
     * may change.
     */
    GuardedMemory(Arena arena, long[] sizes, boolean[] writable, long seed) {
        long total = GUARD;
        for (long size : sizes) {
            total += align(size) + GUARD;
        }
        block = arena.allocate(total, 4096);
        snapshot = arena.allocate(total, 64);
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < total; i += 8) {
            block.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
        }
        long at = 0;
        protectedRanges.add(new long[] {at, GUARD});
        at += GUARD;
        for (int i = 0; i < sizes.length; i++) {
            slices.add(block.asSlice(at, sizes[i]));
            if (!writable[i]) {
                protectedRanges.add(new long[] {at, align(sizes[i])});
            } else if (align(sizes[i]) > sizes[i]) {
                protectedRanges.add(new long[] {at + sizes[i], align(sizes[i]) - sizes[i]});
            }
            at += align(sizes[i]);
            protectedRanges.add(new long[] {at, GUARD});
            at += GUARD;
        }
        snapshot.copyFrom(block);
    }

    private static long align(long size) {
        return (size + 63) & ~63L;
    }

    MemorySegment slice(int index) {
        return slices.get(index);
    }

    /** Whether slice {@code index} differs from its first contents. */
    boolean sliceChanged(int index) {
        MemorySegment slice = slices.get(index);
        long offset = slice.address() - block.address();
        return slice.mismatch(snapshot.asSlice(offset, slice.byteSize())) >= 0;
    }

    /** The first protected byte that changed, as "offset (what it is)", or null when all are intact. */
    String firstProtectedChange() {
        for (long[] range : protectedRanges) {
            long at = block.asSlice(range[0], range[1]).mismatch(snapshot.asSlice(range[0], range[1]));
            if (at >= 0) {
                long offset = range[0] + at;
                return String.format("block offset %d: 0x%02x, was 0x%02x (%s)", offset, block.get(ValueLayout.JAVA_BYTE, offset),
                        snapshot.get(ValueLayout.JAVA_BYTE, offset), describe(offset));
            }
        }
        return null;
    }

    private String describe(long offset) {
        long at = GUARD;
        if (offset < at) {
            return "guard before slice 0";
        }
        for (int i = 0; i < slices.size(); i++) {
            long size = align(slices.get(i).byteSize());
            if (offset < at + size) {
                return "inside slice " + i;
            }
            at += size;
            if (offset < at + GUARD) {
                return "guard after slice " + i;
            }
            at += GUARD;
        }
        return "past the block";
    }
}
