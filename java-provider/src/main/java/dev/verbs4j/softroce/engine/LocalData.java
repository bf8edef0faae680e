package dev.verbs4j.softroce.engine;

import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.softroce.memory.KeyCheck;
import dev.verbs4j.softroce.memory.MemoryTable;
import dev.verbs4j.softroce.memory.Region;

import java.lang.foreign.MemorySegment;

/**
 * Moves message bytes between a packet and a scatter/gather list, starting {@code offset}
 * bytes into the message, checking every entry's lkey as it goes (a region may be
 * deregistered while its message is in flight).
 */
final class LocalData {
    private LocalData() {
    }

    /**
     * Copies {@code length} message bytes from the entries to {@code packet} at {@code at}.
     *
     * @return false when an entry's key no longer names a region of the PD covering it, or
     *         its memory was freed
     */
    static boolean gather(MemoryTable memory, int pdHandle, ScatterGatherList sges, long offset,
                          MemorySegment packet, long at, int length) {
        return copy(memory, pdHandle, sges, offset, packet, at, length, false) == length;
    }

    /**
     * Copies {@code length} bytes from {@code packet} at {@code at} into the entries.
     *
     * @return how many bytes fitted before the entries ran out, or -1 on a bad key or freed memory
     */
    static int scatter(MemoryTable memory, int pdHandle, ScatterGatherList sges, long offset,
                       MemorySegment packet, long at, int length) {
        return copy(memory, pdHandle, sges, offset, packet, at, length, true);
    }

    private static int copy(MemoryTable memory, int pdHandle, ScatterGatherList sges, long offset,
                            MemorySegment packet, long at, int length, boolean intoEntries) {
        long skip = offset;
        int left = length;
        for (int i = 0; i < sges.count() && left > 0; i++) {
            int len = sges.length(i);
            if (skip >= len) {
                skip -= len;
                continue;
            }
            int n = (int) Math.min(len - skip, left);
            if (memory.checkLocal(sges.lkey(i), pdHandle, sges.address(i), len, intoEntries) != KeyCheck.OK) {
                return -1;
            }
            Region region = memory.region();
            long regionOffset = memory.offset() + skip;
            boolean copied = intoEntries ? region.copyIn(regionOffset, packet, at, n) : region.copyOut(regionOffset, packet, at, n);
            if (!copied) {
                memory.foundFreed(region);
                return -1;
            }
            at += n;
            left -= n;
            skip = 0;
        }
        return length - left;
    }
}
