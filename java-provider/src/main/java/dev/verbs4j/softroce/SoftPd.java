package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MrAdvice;
import dev.verbs4j.MwType;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.DeviceLimits;
import dev.verbs4j.softroce.memory.Region;
import dev.verbs4j.softroce.memory.Window;
import dev.verbs4j.spi.Resource;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** A protection domain: its handle tags every object the memory table holds for it. */
final class SoftPd extends Resource implements ProtectionDomain {
    final SoftContext context;
    final int handle;
    /** The live windows of this domain, to find those bound to a region. */
    private final Set<SoftMw> windows = ConcurrentHashMap.newKeySet();

    SoftPd(SoftContext context, int handle) {
        super("protection domain", context);
        this.context = context;
        this.handle = handle;
    }

    @Override
    public DeviceContext context() {
        return context;
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment memory, Set<Access> access) {
        Objects.requireNonNull(memory, "memory");
        return register(memory, access.contains(Access.ZERO_BASED) ? 0 : memory.address(), access);
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment memory, long iova, Set<Access> access) {
        Objects.requireNonNull(memory, "memory");
        return register(memory, iova, access);
    }

    /** A thread that is never started: memory it may access is memory any thread may access. */
    private static final Thread ANOTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private MemoryRegion register(MemorySegment memory, long iova, Set<Access> access) {
        return holdingThisDomain(() -> registerHeld(memory, iova, access));
    }

    private MemoryRegion registerHeld(MemorySegment memory, long iova, Set<Access> access) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered (allocate it from an Arena or map a file)");
        }
        if (!memory.scope().isAlive()) {
            throw new VerbsException(Errno.EINVAL, "the memory is no longer alive: its arena is closed");
        }
        if (!memory.isAccessibleBy(ANOTHER_THREAD)) {
            // The engine's threads copy into and out of registered memory.
            throw new VerbsException(Errno.EINVAL, "memory confined to one thread cannot be registered: the soft engine's"
                    + " threads reach it; allocate it from a shared or automatic arena (Arena.ofShared, Arena.ofAuto)");
        }
        int mask = Access.toMask(access);
        checkAccess(mask, memory);
        if (memory.isReadOnly() && (mask & Access.LOCAL_WRITE.value()) != 0) {
            // The kernel cannot pin a read-only mapping for writing either (EFAULT).
            throw new VerbsException(Errno.EFAULT, "read-only memory cannot be registered with LOCAL_WRITE");
        }
        if (memory.byteSize() > context.device.config().limits().maxMrSize()) {
            throw new VerbsException(Errno.EINVAL, "region of " + memory.byteSize() + " bytes exceeds max_mr_size");
        }
        var engine = context.engine;
        engine.lock().lock();
        try {
            Region region = engine.memory().registerRegion(handle, memory, iova, mask);
            if (region == null) {
                throw new VerbsException(Errno.ENOMEM, "device has no room for another memory region");
            }
            return new SoftMr(this, region);
        } finally {
            engine.lock().unlock();
        }
    }

    /** The rules libibverbs and the kernel apply to access flags at registration. */
    private static void checkAccess(int mask, MemorySegment memory) {
        boolean remoteWriteLike = (mask & (Access.REMOTE_WRITE.value() | Access.REMOTE_ATOMIC.value())) != 0;
        if (remoteWriteLike && (mask & Access.LOCAL_WRITE.value()) == 0) {
            throw new VerbsException(Errno.EINVAL, "remote write or atomic access needs LOCAL_WRITE (IBTA 10.6.3.1)");
        }
        if ((mask & Access.FLUSH_PERSISTENT.value()) != 0 && !memory.isMapped()) {
            // As the kernel allows persistence only on pmem: here it needs a mapped file.
            throw new VerbsException(Errno.EINVAL, "FLUSH_PERSISTENT needs persistent memory: register a mapped file");
        }
    }

    @Override
    public MemoryRegion registerImplicitOnDemand(Set<Access> access) {
        ensureOpen();
        // One region over the whole address space would need the JVM to hand out every
        // address as a segment; the device reports IBV_ODP_SUPPORT_IMPLICIT unset.
        throw new VerbsException(Errno.EOPNOTSUPP, "the soft device does not offer implicit On-Demand Paging");
    }

    @Override
    public MemoryRegion allocateFastRegMr(int maxPages) {
        return holdingThisDomain(() -> allocateFastRegMrHeld(maxPages));
    }

    private MemoryRegion allocateFastRegMrHeld(int maxPages) {
        int limit = context.device.config().limits().maxFastRegPages();
        if (maxPages < 1 || maxPages > limit) {
            throw new VerbsException(Errno.EINVAL, "fast-register page count " + maxPages + " outside 1.." + limit);
        }
        var engine = context.engine;
        engine.lock().lock();
        try {
            Region region = engine.memory().allocateFastRegister(handle, maxPages);
            if (region == null) {
                throw new VerbsException(Errno.ENOMEM, "device has no room for another memory region");
            }
            return new SoftMr(this, region);
        } finally {
            engine.lock().unlock();
        }
    }

    @Override
    public void adviseMr(MrAdvice advice, int flags, ScatterGatherList sges) {
        ensureOpen();
        if (sges.count() == 0 || (flags & ~MrAdvice.FLAG_FLUSH) != 0) {
            throw new VerbsException(Errno.EINVAL, "advise_mr needs at least one range and only FLAG_FLUSH");
        }
        var engine = context.engine;
        engine.lock().lock();
        try {
            // Check every range before acting on any, as a failed call changes nothing.
            for (int i = 0; i < sges.count(); i++) {
                odpRange(engine.memory(), sges, i);
            }
            for (int i = 0; i < sges.count(); i++) {
                Region r = odpRange(engine.memory(), sges, i);
                long offset = engine.memory().offset();
                if (advice != MrAdvice.PREFETCH_NO_FAULT) {
                    r.odp().prefetch(offset, sges.length(i));
                }
            }
        } finally {
            engine.lock().unlock();
        }
        // Prefetch completes before the call returns whether or not FLAG_FLUSH asked for
        // it: the asynchronous form is allowed to finish early.
    }

    private Region odpRange(dev.verbs4j.softroce.memory.MemoryTable memory, ScatterGatherList sges, int i) {
        if (memory.checkLocal(sges.lkey(i), handle, sges.address(i), sges.length(i), false) != dev.verbs4j.softroce.memory.KeyCheck.OK) {
            throw new VerbsException(Errno.EINVAL, "advise_mr range " + i + " is not inside a region of this PD");
        }
        Region r = memory.region();
        if (r.odp() == null) {
            throw new VerbsException(Errno.EINVAL, "advise_mr range " + i + " is in a region that is not on-demand");
        }
        return r;
    }

    @Override
    public MemoryWindow allocateMw(MwType type) {
        return holdingThisDomain(() -> allocateMwHeld(type));
    }

    private MemoryWindow allocateMwHeld(MwType type) {
        var engine = context.engine;
        engine.lock().lock();
        try {
            Window w = engine.memory().allocateWindow(handle, type.value());
            if (w == null) {
                throw new VerbsException(Errno.ENOMEM, "device has no room for another memory window");
            }
            SoftMw mw = new SoftMw(this, w, type);
            windows.add(mw);
            return mw;
        } finally {
            engine.lock().unlock();
        }
    }

    void windowClosed(SoftMw mw) {
        windows.remove(mw);
    }

    /** Deallocates every window of this domain bound to {@code region}. */
    void closeWindowsBoundTo(Region region) {
        for (SoftMw mw : windows) {
            if (mw.boundTo(region)) {
                mw.close();
            }
        }
    }

    @Override
    public QueuePair createQp(QpInitAttributes attributes) {
        return holdingThisDomain(() -> SoftQp.create(this, attributes));
    }

    /**
     * Makes a child while this domain is held: a racing {@link #close()} fails with
     * {@code EBUSY} instead of leaving the child's engine object (a region, a window, a
     * queue pair) registered with no domain to own it.
     */
    private <T> T holdingThisDomain(Supplier<T> make) {
        retain();
        try {
            return make.get();
        } finally {
            release();
        }
    }

    @Override
    public SharedReceiveQueue createSrq(int maxWr, int maxSge, int limit) {
        ensureOpen();
        DeviceLimits l = context.device.config().limits();
        if (maxWr < 1 || maxWr > l.maxSrqWr() || maxSge < 1 || maxSge > l.maxSrqSge() || limit < 0 || limit > maxWr) {
            throw new VerbsException(Errno.EINVAL, "SRQ size " + maxWr + "/" + maxSge + " or limit " + limit + " out of range");
        }
        return new SoftSrq(this, maxWr, maxSge, limit);
    }

    @Override
    public AddressHandle createAh(AddressHandleAttributes attributes) {
        ensureOpen();
        if (attributes.port() != 1 || attributes.sgidIndex() < 0 || attributes.sgidIndex() >= SoftContext.GID_TABLE_LENGTH
                || !context.gidPopulated(attributes.sgidIndex())) {
            throw new VerbsException(Errno.EINVAL, "source GID index " + attributes.sgidIndex() + " or port " + attributes.port());
        }
        return new SoftAh(this, attributes);
    }

    @Override
    protected void destroy() {
    }
}
