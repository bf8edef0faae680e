package dev.verbs4j.softroce.memory;

import dev.verbs4j.Access;

import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The keyed regions and windows of one device, and every key check of the data path.
 * Lookups return {@link KeyCheck} codes and leave their result in fields
 * ({@link #region()}, {@link #offset()}), so nothing is allocated per packet. Not
 * thread-safe: the device serializes control calls with its engine.
 */
public final class MemoryTable {
    private static final int REMOTE_RIGHTS = Access.REMOTE_READ.value() | Access.REMOTE_WRITE.value()
            | Access.REMOTE_ATOMIC.value() | Access.FLUSH_GLOBAL.value() | Access.FLUSH_PERSISTENT.value();

    private MemoryObject[] objects = new MemoryObject[256];
    private int nextIndex = 1;
    private int count;
    private final int maxObjects;
    private int variantSeed;

    private Region region;
    private long offset;
    private long freedRegionsFound;
    private int sweepCursor;
    private final OdpFaultTally odpFaults = new OdpFaultTally();

    /** A table holding at most {@code maxObjects} regions and windows. */
    public MemoryTable(int maxObjects) {
        this.maxObjects = maxObjects;
        this.variantSeed = new SecureRandom().nextInt();
    }

    /**
     * Draws the variant bits of the keys registered from now on from {@code seed} instead of
     * the random start each table takes: for engines driven by hand, whose runs replay from a
     * seed.
     */
    public void seedKeys(long seed) {
        variantSeed = (int) (seed ^ (seed >>> 32));
    }

    /** On-Demand Paging page faults over every region this table has held; any thread. */
    public long odpFaults() {
        return odpFaults.get();
    }

    // ---- control path --------------------------------------------------------------------

    /** Registers memory; returns null when the table is full. */
    public Region registerRegion(int pdHandle, MemorySegment memory, long iova, int access) {
        int index = allocateIndex();
        if (index < 0) {
            return null;
        }
        Region r = new Region(index, pdHandle, keyFor(index), memory, iova, access, 0, odpFaults);
        objects[index] = r;
        return r;
    }

    /** Allocates a fast-register region with room for {@code maxPages} pages; null when full. */
    public Region allocateFastRegister(int pdHandle, int maxPages) {
        int index = allocateIndex();
        if (index < 0) {
            return null;
        }
        Region r = new Region(index, pdHandle, keyFor(index), null, 0, 0, maxPages, odpFaults);
        objects[index] = r;
        return r;
    }

    /** Allocates an unbound window; null when full. */
    public Window allocateWindow(int pdHandle, int type) {
        int index = allocateIndex();
        if (index < 0) {
            return null;
        }
        Window w = new Window(index, pdHandle, keyFor(index), type);
        objects[index] = w;
        return w;
    }

    /**
     * Removes an object; a window's binding is dropped first. Removing a region of its own
     * memory invalidates the fast-registered regions with pages in it: their pages must lie in
     * registered memory, and the application may free that memory once it is deregistered.
     */
    public void remove(MemoryObject object) {
        if (object instanceof Window w) {
            w.unbind();
        }
        if (object instanceof Region r && r.memory() != null) {
            for (MemoryObject o : objects) {
                if (o instanceof Region fast && fast.state() == MemoryObject.VALID && fast.backedBy(r.memory())) {
                    fast.invalidate();
                    if (fast.boundWindows() > 0) {
                        revokeWindowsOn(fast);
                    }
                }
            }
        }
        if (objects[object.index()] == object) {
            objects[object.index()] = null;
            count--;
        }
    }

    /**
     * Revokes the windows bound to a fast-registered region whose pages went away: the region
     * may be registered again over other memory, and a window still bound to it would then
     * grant its old range of that memory, which no bind granted.
     */
    private void revokeWindowsOn(Region fast) {
        for (MemoryObject o : objects) {
            if (o instanceof Window w && w.region() == fast) {
                w.unbind();
                w.invalidate();
            }
        }
    }

    /** Whether {@code object} is still in the table (not removed). */
    private boolean holds(MemoryObject object) {
        return object.index() < objects.length && objects[object.index()] == object;
    }

    /** The object a key names now (index and variant both match), or null. */
    public MemoryObject lookup(int key) {
        int index = key >>> 8;
        if (index <= 0 || index >= objects.length) {
            return null;
        }
        MemoryObject o = objects[index];
        return o != null && o.key == key ? o : null;
    }

    private int allocateIndex() {
        if (count >= maxObjects) {
            return -1;
        }
        for (int tries = 0; tries < objects.length; tries++) {
            if (nextIndex >= objects.length) {
                if (objects.length < maxObjects + 1 && objects.length < (1 << 24)) {
                    objects = Arrays.copyOf(objects, Math.min(objects.length * 2, 1 << 24));
                } else {
                    nextIndex = 1;
                }
            }
            int i = nextIndex++;
            if (objects[i] == null) {
                count++;
                return i;
            }
        }
        return -1;
    }

    private int keyFor(int index) {
        variantSeed = variantSeed * 0x9E3779B1 + 0x7F4A7C15;
        return (index << 8) | ((variantSeed >>> 24) & 0xff);
    }

    // ---- data path -------------------------------------------------------------------------

    /** The region the last successful check resolved to. */
    public Region region() {
        return region;
    }

    /** The byte offset into {@link Region#memory()} the last successful check resolved to. */
    public long offset() {
        return offset;
    }

    /**
     * Whether {@code r}'s memory is alive. A region whose memory the application freed (it
     * closed the arena) is invalid from then on: no access, local or remote, reaches it, and
     * the request fails as one naming an invalid key would.
     */
    private boolean alive(Region r) {
        if (r.memoryAlive()) {
            return true;
        }
        foundFreed(r);
        return false;
    }

    /**
     * Invalidates a region whose memory the application freed while it was registered, and
     * counts it the first time.
     */
    public void foundFreed(Region r) {
        r.state = MemoryObject.INVALID;
        if (!r.foundFreed) {
            r.foundFreed = true;
            freedRegionsFound++;
        }
    }

    /**
     * Looks at one region, the next in turn, and invalidates it if its memory was freed while
     * registered: an idle engine finds such memory before any request reaches it.
     */
    public void sweepOne() {
        sweepCursor = sweepCursor + 1 < objects.length ? sweepCursor + 1 : 1;
        if (objects[sweepCursor] instanceof Region r && r.state() == MemoryObject.VALID && !r.memoryAlive()) {
            foundFreed(r);
        }
    }

    /** How many regions were found registered over freed memory. */
    public long freedRegionsFound() {
        return freedRegionsFound;
    }

    /**
     * The region of the PD that {@code lkey} names if its memory was freed while registered
     * (also once it was found and invalidated), else null. For the posting thread, without the device lock: the objects are read as
     * they are (a Java reference is never torn), so the answer may be late but never unsafe;
     * the engine checks every key again. Allocates nothing.
     */
    public Region freedRegionNamed(int lkey, int pdHandle) {
        MemoryObject[] table = objects;
        int index = lkey >>> 8;
        if (index <= 0 || index >= table.length) {
            return null;
        }
        return table[index] instanceof Region r && r.key == lkey && r.pdHandle() == pdHandle && !r.memoryAlive() ? r : null;
    }

    /**
     * Checks a local scatter/gather entry: the lkey names a valid region of the PD that
     * covers {@code [address, address + length)}, with LOCAL_WRITE when {@code write}.
     */
    public int checkLocal(int lkey, int pdHandle, long address, long length, boolean write) {
        MemoryObject o = lookup(lkey);
        if (!(o instanceof Region r)) {
            return KeyCheck.BAD_KEY;
        }
        if (r.state() != MemoryObject.VALID || !alive(r)) {
            return KeyCheck.INVALID_STATE;
        }
        if (r.pdHandle() != pdHandle) {
            return KeyCheck.PD_MISMATCH;
        }
        if (write && !r.allows(Access.LOCAL_WRITE)) {
            return KeyCheck.NO_ACCESS;
        }
        long off = address - r.localBase();
        if (!r.contains(off, length)) {
            return KeyCheck.OUT_OF_BOUNDS;
        }
        region = r;
        offset = off;
        return KeyCheck.OK;
    }

    /**
     * Checks a remote access: the rkey names a valid region or window of the PD that grants
     * every bit of {@code rights} over {@code [va, va + length)}; a type 2 window must be
     * bound to {@code qpn}.
     */
    public int checkRemote(int rkey, int pdHandle, int qpn, long va, long length, int rights) {
        MemoryObject o = lookup(rkey);
        if (o == null) {
            return KeyCheck.BAD_KEY;
        }
        if (o.state() != MemoryObject.VALID) {
            return KeyCheck.INVALID_STATE;
        }
        if (o.pdHandle() != pdHandle) {
            return KeyCheck.PD_MISMATCH;
        }
        if (o instanceof Window w) {
            if (w.type() == 2 && w.boundQpn() != qpn) {
                return KeyCheck.WRONG_QP;
            }
            if ((w.access() & rights) != rights) {
                return KeyCheck.NO_ACCESS;
            }
            long start = (w.access() & Access.ZERO_BASED.value()) != 0 ? w.address() + va : va;
            // Addresses are unsigned 64-bit: below the window, start - address wraps to a
            // value past any window's length.
            if (length < 0 || Long.compareUnsigned(length, w.length()) > 0
                    || Long.compareUnsigned(start - w.address(), w.length() - length) > 0) {
                return KeyCheck.OUT_OF_BOUNDS;
            }
            Region r = w.region();
            if (r.state() != MemoryObject.VALID || !alive(r)) {
                return KeyCheck.INVALID_STATE;
            }
            region = r;
            offset = start - r.iova();
            return r.contains(offset, length) ? KeyCheck.OK : KeyCheck.OUT_OF_BOUNDS;
        }
        Region r = (Region) o;
        if (!alive(r)) {
            return KeyCheck.INVALID_STATE;
        }
        if ((r.access() & rights) != rights) {
            return KeyCheck.NO_ACCESS;
        }
        long off = va - r.iova();
        if (!r.contains(off, length)) {
            return KeyCheck.OUT_OF_BOUNDS;
        }
        region = r;
        offset = off;
        return KeyCheck.OK;
    }

    /**
     * Checks a key for a whole-region operation (FLUSH with memory-region selectivity):
     * like {@link #checkRemote} without the range; resolves to offset 0 of the region.
     */
    public int checkRemoteObject(int rkey, int pdHandle, int qpn, int rights) {
        MemoryObject o = lookup(rkey);
        if (o == null) {
            return KeyCheck.BAD_KEY;
        }
        if (o.state() != MemoryObject.VALID) {
            return KeyCheck.INVALID_STATE;
        }
        if (o.pdHandle() != pdHandle) {
            return KeyCheck.PD_MISMATCH;
        }
        int granted = o instanceof Window w ? w.access() : ((Region) o).access();
        if (o instanceof Window w && w.type() == 2 && w.boundQpn() != qpn) {
            return KeyCheck.WRONG_QP;
        }
        if ((granted & rights) != rights) {
            return KeyCheck.NO_ACCESS;
        }
        Region r = o instanceof Window w ? w.region() : (Region) o;
        if (r.state() != MemoryObject.VALID || !alive(r)) {
            return KeyCheck.INVALID_STATE;
        }
        region = r;
        offset = 0;
        return KeyCheck.OK;
    }

    /**
     * Binds a window (IBTA 10.6.7): the region must allow MW_BIND and belong to the same PD;
     * remote write or atomic rights need LOCAL_WRITE on the region; the range must lie in
     * it. A zero length unbinds. For a type 2 window the new key's index must be the
     * window's.
     */
    public int bindWindow(Window w, Region r, long address, long length, int rights, int newKey, int qpn) {
        if (!holds(w)) {
            // Deallocated after the bind was posted.
            return KeyCheck.BAD_KEY;
        }
        if (w.type() == 2 && (newKey >>> 8) != w.index()) {
            return KeyCheck.BAD_KEY;
        }
        if (length == 0) {
            w.unbind();
            w.key = newKey;
            w.state = MemoryObject.FREE;
            return KeyCheck.OK;
        }
        if (r == null || r.state() != MemoryObject.VALID || !holds(r)) {
            // Also a region deregistered after the bind was posted: its memory may be freed.
            return KeyCheck.INVALID_STATE;
        }
        if (r.pdHandle() != w.pdHandle()) {
            return KeyCheck.PD_MISMATCH;
        }
        if (!r.allows(Access.MW_BIND)) {
            return KeyCheck.NO_ACCESS;
        }
        boolean remoteWriteLike = (rights & (Access.REMOTE_WRITE.value() | Access.REMOTE_ATOMIC.value())) != 0;
        if (remoteWriteLike && !r.allows(Access.LOCAL_WRITE)) {
            return KeyCheck.NO_ACCESS;
        }
        if (!r.contains(address - r.iova(), length)) {
            return KeyCheck.OUT_OF_BOUNDS;
        }
        w.bind(r, address, length, rights & (REMOTE_RIGHTS | Access.ZERO_BASED.value()), newKey, qpn);
        return KeyCheck.OK;
    }

    /**
     * Fast registration (REG_MR): binds a fast-register region to {@code count} pages of
     * {@code 1 << pageShift} bytes under {@code newKey}. Each page must lie in memory
     * already registered in the same protection domain (a Java process reaches native
     * memory only through its segments); the region must not be valid already, the key
     * must keep the region's index, and the rights follow the registration rules.
     */
    public int fastRegister(Region r, int pdHandle, long[] pageAddresses, int count, int pageShift, long iova, long length,
                            int rights, int newKey) {
        if (!r.isFastRegister() || r.pdHandle() != pdHandle) {
            return KeyCheck.PD_MISMATCH;
        }
        if (!holds(r)) {
            return KeyCheck.BAD_KEY;
        }
        if (r.state() == MemoryObject.VALID) {
            return KeyCheck.INVALID_STATE;
        }
        if ((newKey >>> 8) != r.index() || count < 1 || count > r.maxPages() || pageShift < 12 || pageShift > 30) {
            return KeyCheck.BAD_KEY;
        }
        long pageSize = 1L << pageShift;
        long firstByte = iova & (pageSize - 1);
        if (length < 0 || firstByte + length > count * pageSize) {
            return KeyCheck.OUT_OF_BOUNDS;
        }
        boolean remoteWriteLike = (rights & (Access.REMOTE_WRITE.value() | Access.REMOTE_ATOMIC.value())) != 0;
        if (remoteWriteLike && (rights & Access.LOCAL_WRITE.value()) == 0) {
            return KeyCheck.NO_ACCESS;
        }
        // Every page is checked before any is set: a refused registration leaves the region as it was.
        boolean writable = (rights & Access.LOCAL_WRITE.value()) != 0;
        for (int i = 0; i < count; i++) {
            long address = pageAddresses[i];
            if ((address & (pageSize - 1)) != 0) {
                return KeyCheck.OUT_OF_BOUNDS;
            }
            Region backing = backingRegion(pdHandle, address, pageSize);
            if (backing == null) {
                return KeyCheck.BAD_KEY;
            }
            if (writable && backing.memory().isReadOnly()) {
                // Nothing may write to memory Java holds read-only.
                return KeyCheck.NO_ACCESS;
            }
        }
        for (int i = 0; i < count; i++) {
            Region backing = backingRegion(pdHandle, pageAddresses[i], pageSize);
            r.setPage(i, backing.memory(), pageAddresses[i] - backing.localBase());
        }
        r.registerPages(count, pageShift, iova, length, rights, newKey);
        return KeyCheck.OK;
    }

    /** A contiguous region of the PD that covers {@code [address, address + length)}, or null. */
    private Region backingRegion(int pdHandle, long address, long length) {
        for (MemoryObject o : objects) {
            if (o instanceof Region r && r.pdHandle() == pdHandle && r.memory() != null
                    && r.contains(address - r.localBase(), length)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Invalidates the window or fast-register region {@code key} names (LOCAL_INV,
     * SEND_WITH_INV): only type 2 windows and fast-register regions of the PD can be.
     */
    public int invalidate(int key, int pdHandle) {
        MemoryObject o = lookup(key);
        if (o == null) {
            return KeyCheck.BAD_KEY;
        }
        if (o.pdHandle() != pdHandle) {
            return KeyCheck.PD_MISMATCH;
        }
        if (o instanceof Window w) {
            if (w.type() != 2) {
                return KeyCheck.NO_ACCESS;
            }
            w.unbind();
            w.invalidate();
            return KeyCheck.OK;
        }
        Region r = (Region) o;
        if (!r.isFastRegister()) {
            return KeyCheck.NO_ACCESS;
        }
        if (r.state() != MemoryObject.VALID) {
            return KeyCheck.INVALID_STATE;
        }
        if (r.boundWindows() > 0) {
            // As the kernel rxe: a region with windows bound to it stays valid; otherwise a
            // registration that reuses it would inherit the windows' grants.
            return KeyCheck.WINDOWS_BOUND;
        }
        r.invalidate();
        return KeyCheck.OK;
    }

    /** The number of live objects. */
    public int size() {
        return count;
    }
}
