package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.VerbsException;

/**
 * The live regions of a protection domain by lkey. Posting threads read it without a lock
 * to refuse entries that name a region whose memory the application freed while it was
 * registered; it also keeps every registered region, and so its memory, reachable (memory
 * of an automatic arena is freed once nothing refers to it, while the kernel would still
 * let peers write into it). Registration rebuilds the table (copy on write); a lookup
 * allocates nothing.
 */
final class RegionKeys {
    /** Open addressing by lkey; a null slot ends a probe. Replaced whole, never changed in place. */
    private volatile IbverbsMr[] table = new IbverbsMr[16];
    private int count; // guarded by this

    /** Lists a new region; a deregistered one listed under the same lkey (the kernel reuses keys) goes. */
    synchronized void add(IbverbsMr region) {
        rebuild(null, region);
        count = 0;
        for (IbverbsMr r : table) {
            count += r == null ? 0 : 1;
        }
    }

    synchronized void remove(IbverbsMr region) {
        for (IbverbsMr r : table) {
            if (r == region) {
                count--;
                rebuild(region, null);
                return;
            }
        }
    }

    /** After {@code ibv_rereg_mr} changed a region's keys. */
    synchronized void rekeyed() {
        rebuild(null, null);
    }

    private void rebuild(IbverbsMr without, IbverbsMr with) {
        int size = 16;
        while (size < (count + 1) * 2) {
            size <<= 1;
        }
        IbverbsMr[] next = new IbverbsMr[size];
        for (IbverbsMr r : table) {
            if (r != null && r != without && (with == null || r.lkey() != with.lkey())) {
                put(next, r);
            }
        }
        if (with != null) {
            put(next, with);
        }
        table = next;
    }

    private static void put(IbverbsMr[] slots, IbverbsMr region) {
        int mask = slots.length - 1;
        int i = mix(region.lkey()) & mask;
        while (slots[i] != null) {
            i = (i + 1) & mask;
        }
        slots[i] = region;
    }

    private static int mix(int key) {
        return key * 0x9E3779B1 >>> 7;
    }

    /** Where {@link #sweepOne} looks next; racy on purpose (any slot will do). */
    private int sweepCursor;

    /**
     * Looks at one listed region, the next in turn, and revokes it if its memory was freed
     * while registered (counted, as {@link #refuseFreed} does). Called on empty polls, so a
     * process that polls finds such memory without naming it in a request. Allocates
     * nothing unless it finds one.
     */
    void sweepOne() {
        IbverbsMr[] slots = table;
        IbverbsMr r = slots[sweepCursor++ & (slots.length - 1)];
        if (r != null && !r.memoryAlive() && !r.isClosed()) {
            try {
                r.foundFreed();
            } catch (VerbsException stillRegistered) {
                // Counted; the kernel kept it (a window this process did not bind): the next
                // request naming it is refused all the same.
            }
        }
    }

    /** The region {@code lkey} names, or null. */
    IbverbsMr lookup(int lkey) {
        IbverbsMr[] slots = table;
        int mask = slots.length - 1;
        for (int i = mix(lkey) & mask; ; i = (i + 1) & mask) {
            IbverbsMr r = slots[i];
            if (r == null || r.lkey() == lkey) {
                return r;
            }
        }
    }

    /**
     * Refuses a request whose entry names a region whose memory was freed while it was
     * registered: the region is counted and revoked (deregistered, its windows deallocated),
     * so a peer's request through its keys fails with REM_ACCESS_ERR from then on, and the
     * kernel never reads or writes the freed memory for this request.
     *
     * @throws VerbsException {@code EFAULT} for such an entry
     */
    void refuseFreed(ScatterGatherList sges) {
        for (int i = 0; i < sges.count(); i++) {
            IbverbsMr r = lookup(sges.lkey(i));
            if (r != null && !r.memoryAlive()) {
                VerbsException refused = new VerbsException(Errno.EFAULT, "entry " + i + " names the region with lkey 0x"
                        + Integer.toHexString(sges.lkey(i)) + ", whose memory was freed while it was registered; the region"
                        + " is deregistered now (keep an arena open until its regions are closed, or allocate from a"
                        + " RegisteredArena)");
                try {
                    r.foundFreed();
                } catch (VerbsException stillRegistered) {
                    refused.addSuppressed(stillRegistered);
                }
                throw refused;
            }
        }
    }
}
