package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;

/**
 * The range list of Dataset Management: up to 256 entries of 16 bytes, as many as CDW10's
 * 0's based NR says, each a logical block count and a starting LBA.
 *
 * <pre>
 * 0 context attributes (4) | 4 length in logical blocks (4) | 8 starting LBA (8)
 * </pre>
 */
public final class DatasetRanges {
    public static final int ENTRY_BYTES = 16;
    /** CDW11 bit 2: deallocate the ranges (AD). */
    public static final int ATTRIBUTE_DEALLOCATE = 1 << 2;
    private static final int LENGTH = 4;
    private static final int STARTING_LBA = 8;

    private DatasetRanges() {
    }

    /** The number of ranges CDW10 names. */
    public static int count(int cdw10) {
        return (cdw10 & 0xff) + 1;
    }

    /** Range {@code index}'s length in logical blocks, unsigned. */
    public static long blocks(MemorySegment list, int index) {
        return Le.u32(list, (long) index * ENTRY_BYTES + LENGTH) & 0xffffffffL;
    }

    public static long startingLba(MemorySegment list, int index) {
        return Le.u64(list, (long) index * ENTRY_BYTES + STARTING_LBA);
    }

    public static void write(MemorySegment list, int index, long startingLba, int blocks) {
        long at = (long) index * ENTRY_BYTES;
        Le.u32(list, at, 0);
        Le.u32(list, at + LENGTH, blocks);
        Le.u64(list, at + STARTING_LBA, startingLba);
    }
}
