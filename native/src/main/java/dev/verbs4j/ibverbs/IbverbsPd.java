package dev.verbs4j.ibverbs;

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
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.MemoryVerbs;
import dev.verbs4j.ibverbs.binding.QueuePairVerbs;
import dev.verbs4j.ibverbs.binding.ibv_ah;
import dev.verbs4j.ibverbs.binding.ibv_ah_attr;
import dev.verbs4j.ibverbs.binding.ibv_mr;
import dev.verbs4j.ibverbs.binding.ibv_mw;
import dev.verbs4j.ibverbs.binding.ibv_pd;
import dev.verbs4j.ibverbs.binding.ibv_sge;
import dev.verbs4j.spi.Resource;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A protection domain ({@code struct ibv_pd}). */
final class IbverbsPd extends Resource implements ProtectionDomain {
    /** {@code SIZE_MAX}: the length of an implicit ODP region. */
    private static final long WHOLE_ADDRESS_SPACE = -1L;

    final IbverbsContext context;
    final ibv_pd handle;
    /** The live windows of this domain, to tell which region a bind left them on. */
    private final Set<IbverbsMw> windows = ConcurrentHashMap.newKeySet();
    /** The live regions by lkey: the post-time check of freed memory, and what keeps their memory reachable. */
    final RegionKeys regions = new RegionKeys();

    IbverbsPd(IbverbsContext context, ibv_pd handle) {
        super("protection domain", context);
        this.context = context;
        this.handle = handle;
    }

    @Override
    public DeviceContext context() {
        return context;
    }

    /**
     * {@code ibv_reg_mr}: remote requests use the virtual addresses. With
     * {@link Access#ZERO_BASED} the region is registered with I/O virtual address 0
     * ({@code ibv_reg_mr_iova2}): the kernel takes remote addresses from the iova, and the
     * flag alone does not move it.
     */
    @Override
    public synchronized MemoryRegion registerMemory(MemorySegment memory, Set<Access> access) {
        ensureOpen();
        requireNative(memory, access);
        if (access.contains(Access.ZERO_BASED)) {
            return registerAt(memory, 0, access);
        }
        int mask = Access.toMask(access);
        ibv_mr mr = NativeErrors.require(MemoryVerbs.ibv_reg_mr(handle, memory.address(), memory.byteSize(), mask),
                registration("ibv_reg_mr", memory, mask));
        return registered(new IbverbsMr(this, mr, memory, memory.address(), mask));
    }

    /** {@code ibv_reg_mr_iova2}: remote requests address the region from {@code iova}. */
    @Override
    public synchronized MemoryRegion registerMemory(MemorySegment memory, long iova, Set<Access> access) {
        ensureOpen();
        requireNative(memory, access);
        return registerAt(memory, iova, access);
    }

    private MemoryRegion registerAt(MemorySegment memory, long iova, Set<Access> access) {
        int mask = Access.toMask(access);
        ibv_mr mr = NativeErrors.require(
                MemoryVerbs.ibv_reg_mr_iova2(handle, memory.address(), memory.byteSize(), iova, mask),
                registration("ibv_reg_mr_iova2", memory, mask));
        return registered(new IbverbsMr(this, mr, memory, iova, mask));
    }

    private IbverbsMr registered(IbverbsMr region) {
        regions.add(region);
        return region;
    }

    /** {@code ibv_reg_mr(pd, NULL, SIZE_MAX, IBV_ACCESS_ON_DEMAND | access)}. */
    @Override
    public synchronized MemoryRegion registerImplicitOnDemand(Set<Access> access) {
        ensureOpen();
        int mask = Access.toMask(access) | IbverbsConstants.IBV_ACCESS_ON_DEMAND;
        ibv_mr mr = NativeErrors.require(MemoryVerbs.ibv_reg_mr(handle, 0L, WHOLE_ADDRESS_SPACE, mask),
                "ibv_reg_mr(NULL, SIZE_MAX, access 0x" + Integer.toHexString(mask) + ")");
        return registered(new IbverbsMr(this, mr, MemorySegment.NULL, 0, mask));
    }

    private static void requireNative(MemorySegment memory, Set<Access> access) {
        Objects.requireNonNull(memory, "memory");
        if (!memory.isNative()) {
            throw new IllegalArgumentException(
                    "only native memory can be registered (allocate it from an Arena or map a file)");
        }
        if (!memory.scope().isAlive()) {
            // Its arena freed it: the kernel would pin whatever the allocator put there since.
            throw new VerbsException(Errno.EINVAL, "the memory is no longer alive: its arena is closed");
        }
        if (memory.isReadOnly() && access.contains(Access.LOCAL_WRITE)) {
            // The kernel cannot pin a read-only mapping for writing either (EFAULT); a read-only
            // view of writable memory is refused alike, so both providers agree.
            throw new VerbsException(Errno.EFAULT, "read-only memory cannot be registered with LOCAL_WRITE");
        }
    }

    private static String registration(String call, MemorySegment memory, int mask) {
        return call + "(" + memory.byteSize() + " bytes at 0x" + Long.toHexString(memory.address()) + ", access 0x"
                + Integer.toHexString(mask) + ")";
    }

    @Override
    public MemoryRegion allocateFastRegMr(int maxPages) {
        ensureOpen();
        throw new VerbsException(Errno.EOPNOTSUPP, "libibverbs has no user-space fast registration");
    }

    @Override
    public synchronized void adviseMr(MrAdvice advice, int flags, ScatterGatherList sges) {
        ensureOpen();
        int count = sges.count();
        refuseRegionsNotOnDemand(advice, sges);
        try (ibv_sge ranges = new ibv_sge(Math.max(1, count))) {
            for (int i = 0; i < count; i++) {
                ranges.position(i).addr(sges.address(i)).length(sges.length(i)).lkey(sges.lkey(i));
            }
            ranges.position(0);
            NativeErrors.check(MemoryVerbs.ibv_advise_mr(handle, advice.value(), flags, ranges, count),
                    "ibv_advise_mr(" + advice + ")");
        }
    }

    /**
     * Advice is for on-demand regions only. The kernel's rxe takes any region its lkey names
     * for an on-demand one and reads the fields of one that is not as the ODP state it lacks:
     * a kernel fault (7.3.4), or a write to whatever those fields point at. So a range whose
     * lkey names a region of this domain registered without ON_DEMAND never reaches the kernel.
     * An lkey this domain does not know is the kernel's to refuse.
     */
    private void refuseRegionsNotOnDemand(MrAdvice advice, ScatterGatherList sges) {
        for (int i = 0; i < sges.count(); i++) {
            IbverbsMr region = regions.lookup(sges.lkey(i));
            if (region != null && (region.accessMask() & IbverbsConstants.IBV_ACCESS_ON_DEMAND) == 0) {
                throw new VerbsException(Errno.EINVAL, "ibv_advise_mr(" + advice + "): range " + i + " is in the region"
                        + " with lkey 0x" + Integer.toHexString(sges.lkey(i)) + ", which was registered without ON_DEMAND");
            }
        }
    }

    @Override
    public synchronized MemoryWindow allocateMw(MwType type) {
        ensureOpen();
        ibv_mw mw = NativeErrors.require(MemoryVerbs.ibv_alloc_mw(handle, type.value()), "ibv_alloc_mw(" + type + ")");
        IbverbsMw window = new IbverbsMw(this, mw, type);
        windows.add(window);
        if (type == MwType.TYPE_2) {
            context.type2WindowOpened();
        }
        return window;
    }

    void windowClosed(IbverbsMw window) {
        if (windows.remove(window) && window.type() == MwType.TYPE_2) {
            context.type2WindowClosed();
        }
    }

    /** The live type 2 window of this domain whose key is {@code rkey}, or null. */
    IbverbsMw type2Window(int rkey) {
        for (IbverbsMw w : windows) {
            if (w.type() == MwType.TYPE_2 && w.rkey() == rkey && !w.isClosed()) {
                return w;
            }
        }
        return null;
    }

    /** Deallocates every live window this process bound to {@code region} last. */
    void closeWindowsBoundTo(IbverbsMr region) {
        for (IbverbsMw w : windows) {
            if (w.boundRegion() == region) {
                w.close();
            }
        }
    }

    /** Whether a live window was last bound to {@code region} by this process. */
    boolean hasWindowBoundTo(IbverbsMr region) {
        for (IbverbsMw w : windows) {
            if (w.boundRegion() == region) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized QueuePair createQp(QpInitAttributes attributes) {
        ensureOpen();
        return QpFactory.create(this, attributes);
    }

    @Override
    public synchronized SharedReceiveQueue createSrq(int maxWr, int maxSge, int limit) {
        ensureOpen();
        return IbverbsSrq.create(this, maxWr, maxSge, limit);
    }

    /** {@code ibv_create_ah} with a global route, as RoCE requires. */
    @Override
    public synchronized AddressHandle createAh(AddressHandleAttributes attributes) {
        ensureOpen();
        Objects.requireNonNull(attributes, "attributes");
        try (ibv_ah_attr attr = new ibv_ah_attr()) {
            QpAttributeMapping.writeAddressVector(attributes, attr);
            ibv_ah ah = NativeErrors.require(QueuePairVerbs.ibv_create_ah(handle, attr), "ibv_create_ah(" + attributes + ")");
            return new IbverbsAh(this, ah, attributes);
        }
    }

    @Override
    protected void destroy() {
        NativeErrors.check(MemoryVerbs.ibv_dealloc_pd(handle), "ibv_dealloc_pd");
        context.pdClosed(this);
    }
}
