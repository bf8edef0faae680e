package dev.verbs4j.softroce.memory;

import dev.verbs4j.Access;

import java.lang.foreign.MemorySegment;

/**
 * A memory region as the engine sees it: the registered memory, the address remote
 * requests start from ({@code iova}), the local address scatter/gather entries use, and
 * the rights. A fast-register region starts {@link #FREE} with no memory and is given
 * memory by a REG_MR work request.
 */
public final class Region extends MemoryObject {
    private MemorySegment memory;
    private long iova;
    private long localBase;
    private long length;
    private int access;
    private int boundWindows;
    private final int maxPages;
    private final OdpState odp;

    Region(int index, int pdHandle, int key, MemorySegment memory, long iova, int access, int maxPages) {
        super(index, pdHandle, key, memory == null ? FREE : VALID);
        this.maxPages = maxPages;
        this.odp = (access & Access.ON_DEMAND.value()) != 0 ? new OdpState(memory.byteSize()) : null;
        if (memory != null) {
            bind(memory, iova, access);
        }
    }

    void bind(MemorySegment newMemory, long newIova, int newAccess) {
        this.memory = newMemory;
        this.iova = newIova;
        this.localBase = newMemory.address();
        this.length = newMemory.byteSize();
        this.access = newAccess;
    }

    /** Fast registration: binds the region to memory under a new key. */
    public void register(MemorySegment newMemory, long newIova, int newAccess, int newKey) {
        bind(newMemory, newIova, newAccess);
        this.key = newKey;
        this.state = VALID;
    }

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

    /** Whether {@code [offset, offset + len)} lies inside the region. */
    public boolean contains(long offset, long len) {
        return offset >= 0 && len >= 0 && offset <= length && len <= length - offset;
    }
}
