package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.MemoryObjectHolder;
import dev.verbs4j.softroce.memory.MemoryObject;
import dev.verbs4j.softroce.memory.Region;
import dev.verbs4j.spi.Resource;
import dev.verbs4j.spi.RevocableRegion;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/** A memory region. */
final class SoftMr extends Resource implements MemoryRegion, MemoryObjectHolder, RevocableRegion {
    private final SoftPd pd;
    final Region region;

    SoftMr(SoftPd pd, Region region) {
        super("memory region", pd);
        this.pd = pd;
        this.region = region;
    }

    dev.verbs4j.softroce.engine.DeviceEngine engine() {
        return pd.context.engine;
    }

    @Override
    public MemoryObject memoryObject() {
        return region;
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public int lkey() {
        return region.key();
    }

    @Override
    public int rkey() {
        return region.key();
    }

    @Override
    public long address() {
        return region.iova();
    }

    @Override
    public long localAddress() {
        return region.localBase();
    }

    @Override
    public long length() {
        return region.length();
    }

    @Override
    public MemorySegment memory() {
        return region.memory() == null ? MemorySegment.NULL : region.memory();
    }

    @Override
    public Set<Access> access() {
        return Access.fromMask(region.access());
    }

    @Override
    public void reregister(MemorySegment memory, Set<Access> access) {
        ensureOpen();
        // As the kernel rxe: re-registration is not supported.
        throw new VerbsException(Errno.EOPNOTSUPP, "the soft device does not re-register regions");
    }

    /**
     * Deallocates the windows bound to the region, then deregisters it; deregistration also
     * invalidates the fast-registered regions with pages in its memory
     * ({@link dev.verbs4j.softroce.memory.MemoryTable#remove}).
     */
    @Override
    public void revoke() {
        if (isClosed()) {
            return;
        }
        pd.closeWindowsBoundTo(region);
        close();
    }

    @Override
    protected void destroy() {
        var engine = pd.context.engine;
        engine.lock().lock();
        try {
            if (!region.isFastRegister() && !region.memoryAlive()) {
                engine.memory().foundFreed(region);
            }
            if (region.boundWindows() > 0) {
                throw new VerbsException(Errno.EBUSY, "memory region has " + region.boundWindows() + " bound window(s)");
            }
            engine.memory().remove(region);
        } finally {
            engine.lock().unlock();
        }
    }
}
