package dev.verbs4j.softroce.memory;

/**
 * Page presence of an On-Demand Paging region, in 4 KiB pages: the transport faults pages
 * in when it first touches them, invalidation takes them away, prefetch brings them in
 * ahead of time. Counters record each.
 */
public final class OdpState {
    /** Page size of the presence map. */
    public static final int PAGE_SHIFT = 12;

    private final long[] present;
    private final long pageCount;
    private long faults;
    private long presentPages;
    private long invalidations;
    private long prefetches;

    OdpState(long byteSize) {
        this.pageCount = (byteSize + (1L << PAGE_SHIFT) - 1) >>> PAGE_SHIFT;
        this.present = new long[(int) ((pageCount + 63) >>> 6)];
    }

    /** Marks the pages of {@code [offset, offset + length)} present, counting a fault for each that was not. */
    public void touch(long offset, long length) {
        faults += markPresent(offset, length);
    }

    /** Prefetch: like {@link #touch} but counted as prefetched pages. */
    public long prefetch(long offset, long length) {
        long added = markPresent(offset, length);
        prefetches += added;
        return added;
    }

    /** Drops the pages of a range (an MMU-notifier style invalidation). */
    public void invalidate(long offset, long length) {
        if (length <= 0) {
            return;
        }
        long first = offset >>> PAGE_SHIFT;
        long last = Math.min(pageCount - 1, (offset + length - 1) >>> PAGE_SHIFT);
        for (long p = first; p <= last; p++) {
            long bit = 1L << (p & 63);
            int word = (int) (p >>> 6);
            if ((present[word] & bit) != 0) {
                present[word] &= ~bit;
                presentPages--;
            }
        }
        invalidations++;
    }

    /** Whether every page of the range is present. */
    public boolean isPresent(long offset, long length) {
        if (length <= 0) {
            return true;
        }
        long last = Math.min(pageCount - 1, (offset + length - 1) >>> PAGE_SHIFT);
        for (long p = offset >>> PAGE_SHIFT; p <= last; p++) {
            if ((present[(int) (p >>> 6)] & (1L << (p & 63))) == 0) {
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
            long bit = 1L << (p & 63);
            int word = (int) (p >>> 6);
            if ((present[word] & bit) == 0) {
                present[word] |= bit;
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
