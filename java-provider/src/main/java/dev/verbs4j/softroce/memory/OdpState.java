package dev.verbs4j.softroce.memory;

/**
 * Page presence of an On-Demand Paging region, in 4 KiB pages: the transport faults pages
 * in when it first touches them, invalidation takes them away, prefetch brings them in
 * ahead of time. The map is two-level and allocated as it is touched, so registering a
 * region costs the same whatever its size (a 64 GiB region starts with a 32 KiB table).
 */
public final class OdpState {
    /** Page size of the presence map. */
    public static final int PAGE_SHIFT = 12;
    private static final int CHUNK_PAGES_SHIFT = 12;          // 4096 pages (16 MiB) per chunk
    private static final int WORDS_PER_CHUNK = (1 << CHUNK_PAGES_SHIFT) / 64;

    private final long[][] chunks;
    private final long pageCount;
    private long faults;
    private long presentPages;
    private long invalidations;
    private long prefetches;

    private final OdpFaultTally deviceFaults;

    OdpState(long byteSize, OdpFaultTally deviceFaults) {
        this.deviceFaults = deviceFaults;
        this.pageCount = (byteSize + (1L << PAGE_SHIFT) - 1) >>> PAGE_SHIFT;
        this.chunks = new long[(int) ((pageCount + (1L << CHUNK_PAGES_SHIFT) - 1) >>> CHUNK_PAGES_SHIFT)][];
    }

    /** Marks the pages of {@code [offset, offset + length)} present, counting a fault for each that was not. */
    public void touch(long offset, long length) {
        long added = markPresent(offset, length);
        faults += added;
        deviceFaults.add(added);
    }

    /** Prefetch: like {@link #touch} but counted as prefetched pages; returns how many came in. */
    public long prefetch(long offset, long length) {
        long added = markPresent(offset, length);
        prefetches += added;
        return added;
    }

    /** Drops the pages of a range (what the kernel's MMU notifier does on reclaim or unmap). */
    public void invalidate(long offset, long length) {
        invalidations++;
        if (length <= 0) {
            return;
        }
        long last = Math.min(pageCount - 1, (offset + length - 1) >>> PAGE_SHIFT);
        for (long p = offset >>> PAGE_SHIFT; p <= last; p++) {
            long[] chunk = chunks[(int) (p >>> CHUNK_PAGES_SHIFT)];
            if (chunk == null) {
                p = ((p >>> CHUNK_PAGES_SHIFT) + 1 << CHUNK_PAGES_SHIFT) - 1;
                continue;
            }
            int word = (int) ((p >>> 6) & (WORDS_PER_CHUNK - 1));
            long bit = 1L << (p & 63);
            if ((chunk[word] & bit) != 0) {
                chunk[word] &= ~bit;
                presentPages--;
            }
        }
    }

    /** Whether every page of the range is present. */
    public boolean isPresent(long offset, long length) {
        if (length <= 0) {
            return true;
        }
        long last = Math.min(pageCount - 1, (offset + length - 1) >>> PAGE_SHIFT);
        for (long p = offset >>> PAGE_SHIFT; p <= last; p++) {
            long[] chunk = chunks[(int) (p >>> CHUNK_PAGES_SHIFT)];
            if (chunk == null || (chunk[(int) ((p >>> 6) & (WORDS_PER_CHUNK - 1))] & (1L << (p & 63))) == 0) {
                return false;
            }
        }
        return true;
    }

    private long markPresent(long offset, long length) {
        if (length <= 0) {
            return 0;
        }
        long added = 0;
        long last = Math.min(pageCount - 1, (offset + length - 1) >>> PAGE_SHIFT);
        for (long p = offset >>> PAGE_SHIFT; p <= last; p++) {
            int c = (int) (p >>> CHUNK_PAGES_SHIFT);
            long[] chunk = chunks[c];
            if (chunk == null) {
                chunk = chunks[c] = new long[WORDS_PER_CHUNK];
            }
            int word = (int) ((p >>> 6) & (WORDS_PER_CHUNK - 1));
            long bit = 1L << (p & 63);
            if ((chunk[word] & bit) == 0) {
                chunk[word] |= bit;
                added++;
            }
        }
        presentPages += added;
        return added;
    }

    public long faults() {
        return faults;
    }

    public long presentPages() {
        return presentPages;
    }

    public long invalidations() {
        return invalidations;
    }

    public long prefetches() {
        return prefetches;
    }
}
