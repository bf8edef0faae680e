package dev.verbs4j.softroce.memory;

import dev.verbs4j.Access;

import java.lang.foreign.MemorySegment;

/**
 * A memory region as the engine sees it: the registered memory, the address remote
 * requests start from ({@code iova}), the local address scatter/gather entries use, and
 * the rights. A region is either one contiguous segment, or, after fast registration, a
 * list of pages (each a place in memory already registered in the same protection domain:
 * that region's segment and an offset into it) laid out from {@code iova}. The page list
 * is allocated once, for the most pages the region takes, so registering allocates nothing.
 * Every byte the engine moves goes through {@link #copyIn}, {@link #copyOut} or
 * {@link #segmentAt}, which map a region offset to memory.
 */
public final class Region extends MemoryObject {
    /**
     * TEST ONLY, never set otherwise: with {@code -Dverbs4j.soft.testOnly.skipForce=true} a
     * persistent FLUSH is acknowledged without writing the range back to its file. It exists
     * so that the power-loss test (scripts/vm-guest-power-loss.sh) can show it detects a
     * missing write-back: its negative control must then lose acknowledged records.
     */
    static final String TEST_ONLY_SKIP_FORCE_PROPERTY = "verbs4j.soft.testOnly.skipForce";
    private static final boolean TEST_ONLY_SKIP_FORCE = Boolean.getBoolean(TEST_ONLY_SKIP_FORCE_PROPERTY);

    static {
        if (TEST_ONLY_SKIP_FORCE) {
            System.err.println("verbs4j soft: " + TEST_ONLY_SKIP_FORCE_PROPERTY
                    + " is set: persistent FLUSH is acknowledged WITHOUT writing back (test only)");
        }
    }

    private MemorySegment memory;
    /** Page {@code i} is {@code pageMemory[i]} from {@code pageOffsets[i]}; {@code pageCount} are in use. */
    private final MemorySegment[] pageMemory;
    /** The distinct segments behind the pages in use, {@code backingCount} of them: what liveness is checked on. */
    private final MemorySegment[] backings;
    private int backingCount;
    private final long[] pageOffsets;
    private int pageCount;
    private int pageShift;
    private long firstByteOffset;
    private long iova;
    private long localBase;
    private long length;
    private int access;
    private int boundWindows;
    /** Whether the memory was found freed while registered (counted once). */
    boolean foundFreed;
    private final int maxPages;
    private final OdpState odp;

    Region(int index, int pdHandle, int key, MemorySegment memory, long iova, int access, int maxPages,
           OdpFaultTally deviceFaults) {
        super(index, pdHandle, key, memory == null ? FREE : VALID);
        this.maxPages = maxPages;
        this.pageMemory = new MemorySegment[Math.max(0, maxPages)];
        this.backings = new MemorySegment[Math.max(0, maxPages)];
        this.pageOffsets = new long[Math.max(0, maxPages)];
        this.odp = (access & Access.ON_DEMAND.value()) != 0 ? new OdpState(memory.byteSize(), deviceFaults) : null;
        if (memory != null) {
            this.memory = memory;
            this.iova = iova;
            this.localBase = memory.address();
            this.length = memory.byteSize();
            this.access = access;
        }
    }

    /** Sets page {@code i} of the next {@link #registerPages}: {@code backing} from {@code offset}. */
    void setPage(int i, MemorySegment backing, long offset) {
        pageMemory[i] = backing;
        pageOffsets[i] = offset;
    }

    /**
     * Fast registration: lays the first {@code count} pages set by {@link #setPage} (each
     * {@code 1 << pageShift} bytes) out from {@code iova}, whose offset into the first page
     * is {@code iova & (pageSize - 1)}, for {@code length} bytes, under a new key. Local
     * entries address it by iova too.
     */
    void registerPages(int count, int newPageShift, long newIova, long newLength, int newAccess, int newKey) {
        this.memory = null;
        this.pageCount = count;
        // Pages mostly share a few backing regions: their liveness is checked once each, per access.
        backingCount = 0;
        for (int i = 0; i < count; i++) {
            if (!isBacking(pageMemory[i])) {
                backings[backingCount++] = pageMemory[i];
            }
        }
        this.pageShift = newPageShift;
        this.firstByteOffset = newIova & ((1L << newPageShift) - 1);
        this.iova = newIova;
        this.localBase = newIova;
        this.length = newLength;
        this.access = newAccess;
        this.key = newKey;
        this.state = VALID;
    }

    /** The registered memory of a contiguous region, or null for a page-list region. */
    public MemorySegment memory() {
        return memory;
    }

    /** The address of byte 0 for remote requests. */
    public long iova() {
        return iova;
    }

    /** The address of byte 0 for local scatter/gather entries. */
    public long localBase() {
        return localBase;
    }

    public long length() {
        return length;
    }

    /** The {@link Access} bits. */
    public int access() {
        return access;
    }

    public boolean allows(Access right) {
        return (access & right.value()) != 0;
    }

    /** The page capacity of a fast-register region (0 for an ordinary one). */
    public int maxPages() {
        return maxPages;
    }

    public boolean isFastRegister() {
        return maxPages > 0;
    }

    /** The On-Demand Paging state, or null for a pinned region. */
    public OdpState odp() {
        return odp;
    }

    public int boundWindows() {
        return boundWindows;
    }

    void windowBound() {
        boundWindows++;
    }

    void windowUnbound() {
        if (boundWindows > 0) {
            boundWindows--;
        }
    }

    /**
     * Whether the memory behind the region is still alive: the application may close the
     * arena of registered memory, and then nothing may touch it.
     */
    public boolean memoryAlive() {
        if (memory != null) {
            return memory.scope().isAlive();
        }
        for (int i = 0; i < backingCount; i++) {
            if (!backings[i].scope().isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** Whether a page of this fast-registered region lies in {@code segment}. */
    public boolean backedBy(MemorySegment segment) {
        return memory == null && isBacking(segment);
    }

    private boolean isBacking(MemorySegment segment) {
        for (int i = 0; i < backingCount; i++) {
            if (backings[i] == segment) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code [offset, offset + len)} lies inside the region. */
    public boolean contains(long offset, long len) {
        return offset >= 0 && len >= 0 && offset <= length && len <= length - offset;
    }

    /**
     * Copies {@code len} bytes from {@code src} into the region at {@code offset} (checked by
     * the caller). On an On-Demand Paging region the pages are faulted in first.
     *
     * @return false when the memory was freed under the copy (its arena closed by another
     *         thread after the caller's check): the copy stopped, and the caller fails the
     *         request as one naming an invalid key
     */
    public boolean copyIn(long offset, MemorySegment src, long srcOffset, long len) {
        return copy(offset, src, srcOffset, len, true);
    }

    /** Copies {@code len} bytes of the region at {@code offset} to {@code dst}, faulting ODP pages in; see {@link #copyIn}. */
    public boolean copyOut(long offset, MemorySegment dst, long dstOffset, long len) {
        return copy(offset, dst, dstOffset, len, false);
    }

    private boolean copy(long offset, MemorySegment other, long otherOffset, long len, boolean intoRegion) {
        if (odp != null) {
            odp.touch(offset, len);
        }
        try {
            while (len > 0) {
                MemorySegment target = segmentAt0(offset);
                long within = segmentOffset(offset);
                long n = memory != null ? len : Math.min(len, (1L << pageShift) - withinPage(offset));
                if (intoRegion) {
                    MemorySegment.copy(other, otherOffset, target, within, n);
                } else {
                    MemorySegment.copy(target, within, other, otherOffset, n);
                }
                offset += n;
                otherOffset += n;
                len -= n;
            }
            return true;
        } catch (IllegalStateException freedUnderTheCopy) {
            return false;
        }
    }

    /**
     * The segment that holds the 8 bytes at {@code offset}, for atomics (which stay in one
     * page); see {@link #segmentOffset}. Faults ODP pages in.
     */
    public MemorySegment segmentAt(long offset) {
        if (odp != null) {
            odp.touch(offset, 8);
        }
        return segmentAt0(offset);
    }

    private MemorySegment segmentAt0(long offset) {
        return memory != null ? memory : pageMemory[(int) ((offset + firstByteOffset) >>> pageShift)];
    }

    /** The byte's offset inside {@link #segmentAt}. */
    public long segmentOffset(long offset) {
        return memory != null ? offset : pageOffsets[(int) ((offset + firstByteOffset) >>> pageShift)] + withinPage(offset);
    }

    /** Where in its page (of a page-list region) the byte at {@code offset} lies. */
    private long withinPage(long offset) {
        return (offset + firstByteOffset) & ((1L << pageShift) - 1);
    }

    /** Forces {@code [offset, offset + len)} to storage; false when some of it is not file-backed. */
    public boolean force(long offset, long len) {
        if (len <= 0) {
            return memory != null ? memory.isMapped() : allMapped();
        }
        if (memory != null) {
            if (!memory.isMapped()) {
                return false;
            }
            return force(memory.asSlice(offset, len));
        }
        while (len > 0) {
            MemorySegment page = segmentAt(offset);
            long within = segmentOffset(offset);
            long n = Math.min(len, (1L << pageShift) - withinPage(offset));
            if (!page.isMapped() || !force(page.asSlice(within, n))) {
                return false;
            }
            offset += n;
            len -= n;
        }
        return true;
    }

    /** Forces a mapped slice; false when the system fails to write it back or its memory was freed under it. */
    private static boolean force(MemorySegment slice) {
        if (TEST_ONLY_SKIP_FORCE) {
            return true;
        }
        try {
            slice.force();
            return true;
        } catch (java.io.UncheckedIOException | IllegalStateException notPersisted) {
            return false;
        }
    }

    /** Whether all of the region is file-backed (persistent). */
    public boolean isPersistent() {
        return memory != null ? memory.isMapped() : allMapped();
    }

    private boolean allMapped() {
        if (pageCount == 0) {
            return false;
        }
        for (int i = 0; i < pageCount; i++) {
            if (!pageMemory[i].isMapped()) {
                return false;
            }
        }
        return true;
    }
}
