package dev.verbs4j.softroce;

import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.memory.OdpState;

/**
 * What the soft provider offers beyond the verbs for On-Demand Paging regions: taking a
 * range away, as the kernel's MMU notifier does when pages are reclaimed or unmapped
 * (traffic touching it afterwards faults again and sees the current contents), and the
 * region's counters. They have no libibverbs counterpart: there the kernel invalidates
 * on its own, and a user can only advise ({@code ibv_advise_mr}).
 */
public final class SoftOdp {
    private SoftOdp() {
    }

    /**
     * The counters of an On-Demand Paging region.
     * They have no libibverbs counterpart: rdma-core reads such numbers only from a provider's own
     * debug counters.
     *
     * @param faults page faults the device took on the region's memory
     * @param presentPages pages currently mapped for the device
     * @param invalidations ranges taken away by {@link #invalidate}
     * @param prefetchedPages pages brought in by {@code ibv_advise_mr} prefetches
     */
    public record Statistics(long faults, long presentPages, long invalidations, long prefetchedPages) {
    }

    /**
     * Invalidates {@code [offset, offset + length)} of an on-demand region, atomically with
     * respect to the traffic the device is processing.
     *
     * @throws VerbsException {@code EINVAL} for a region that is not on-demand or of another provider
     * @param region an on-demand region of the soft provider
     * @param offset bytes from the region's start
     * @param length bytes to take away
     */
    public static void invalidate(MemoryRegion region, long offset, long length) {
        SoftMr mr = odpRegion(region);
        var engine = mr.engine();
        engine.lock().lock();
        try {
            mr.region.odp().invalidate(offset, length);
        } finally {
            engine.lock().unlock();
        }
    }

    /**
     * The region's fault, presence, invalidation and prefetch counters.
     *
     * @param region an on-demand region of the soft provider
     * @return a snapshot of the counters
     * @throws VerbsException {@code EINVAL} for a region that is not on-demand or of another provider
     */
    public static Statistics statistics(MemoryRegion region) {
        SoftMr mr = odpRegion(region);
        var engine = mr.engine();
        engine.lock().lock();
        try {
            OdpState s = mr.region.odp();
            return new Statistics(s.faults(), s.presentPages(), s.invalidations(), s.prefetches());
        } finally {
            engine.lock().unlock();
        }
    }

    private static SoftMr odpRegion(MemoryRegion region) {
        if (!(region instanceof SoftMr mr) || mr.region.odp() == null) {
            throw new VerbsException(Errno.EINVAL, "not an on-demand region of the soft provider");
        }
        mr.ensureOpen();
        return mr;
    }
}
