package dev.verbs4j.ibverbs;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.CqCreateFlag;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.Gid;
import dev.verbs4j.GidEntry;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcField;
import dev.verbs4j.WcFlag;
import dev.verbs4j.ibverbs.binding.CompletionVerbs;
import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.ibverbs.binding.FileDescriptors;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.MemoryVerbs;
import dev.verbs4j.ibverbs.binding.ibv_comp_channel;
import dev.verbs4j.ibverbs.binding.ibv_context;
import dev.verbs4j.ibverbs.binding.ibv_cq;
import dev.verbs4j.ibverbs.binding.ibv_cq_ex;
import dev.verbs4j.ibverbs.binding.ibv_cq_init_attr_ex;
import dev.verbs4j.ibverbs.binding.ibv_device_attr_ex;
import dev.verbs4j.ibverbs.binding.ibv_gid_entry;
import dev.verbs4j.ibverbs.binding.ibv_port_attr;
import dev.verbs4j.spi.Resource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** An open device ({@code struct ibv_context}). */
final class IbverbsContext extends Resource implements DeviceContext {
    private static final int ENODATA = 61;
    private static final int MAX_PORT = 255;

    final IbverbsDevice device;
    final ibv_context handle;
    /** Set once the provider made an extended queue pair here (QpFactory). */
    volatile boolean extendedQueuePairs;
    private final AsyncEvents asyncEvents;

    /**
     * Every context not yet closed. Through it an open context keeps its domains' regions,
     * and so their memory, reachable: an application that drops every reference without
     * closing must not let an automatic arena free memory the kernel still lets peers write.
     */
    private static final Set<IbverbsContext> OPEN = ConcurrentHashMap.newKeySet();

    /** Wraps an open context; the caller made {@code async_fd} non-blocking. */
    IbverbsContext(IbverbsDevice device, ibv_context handle) {
        super("device context " + device.name());
        this.device = device;
        this.handle = handle;
        this.asyncEvents = new AsyncEvents(this);
        OPEN.add(this);
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public synchronized DeviceAttributes queryDevice() {
        ensureOpen();
        try (ibv_device_attr_ex attr = new ibv_device_attr_ex()) {
            NativeErrors.check(DeviceVerbs.ibv_query_device_ex(handle, null, attr), "ibv_query_device_ex");
            return DeviceMapping.deviceAttributes(attr);
        }
    }

    @Override
    public synchronized PortAttributes queryPort(int port) {
        ensureOpen();
        checkPort(port);
        try (ibv_port_attr attr = new ibv_port_attr()) {
            NativeErrors.check(DeviceVerbs.ibv_query_port(handle, port, attr), "ibv_query_port(" + port + ")");
            return DeviceMapping.portAttributes(attr);
        }
    }

    @Override
    public synchronized int completionVectorCount() {
        ensureOpen();
        return handle.num_comp_vectors();
    }

    /** An empty slot reads as {@link Gid#ZERO}, as {@code ibv_query_gid} reports it. */
    @Override
    public synchronized Gid queryGid(int port, int index) {
        GidEntry entry = gidEntryOrNull(port, index);
        return entry == null ? Gid.ZERO : entry.gid();
    }

    @Override
    public synchronized GidEntry queryGidEntry(int port, int index) {
        GidEntry entry = gidEntryOrNull(port, index);
        if (entry == null) {
            throw new VerbsException(Errno.ENODATA, "GID index " + index + " of port " + port + " is empty");
        }
        return entry;
    }

    /** The entry through {@code ibv_query_gid_ex}, which returns its error number itself; null for an empty slot (ENODATA). */
    private GidEntry gidEntryOrNull(int port, int index) {
        ensureOpen();
        checkPort(port);
        if (index < 0) {
            throw new VerbsException(Errno.EINVAL, "GID index " + index);
        }
        try (ibv_gid_entry entry = new ibv_gid_entry()) {
            int rc = DeviceVerbs.ibv_query_gid_ex(handle, port, index, entry, 0);
            if (rc == ENODATA) {
                return null;
            }
            NativeErrors.check(rc, "ibv_query_gid_ex(port " + port + ", index " + index + ")");
            return DeviceMapping.gidEntry(entry);
        }
    }

    @Override
    public synchronized List<GidEntry> queryGidTable(int maxEntries) {
        ensureOpen();
        if (maxEntries < 0) {
            throw new VerbsException(Errno.EINVAL, "room for " + maxEntries + " GID entries");
        }
        // libibverbs writes nothing into a zero-length array, but wants one to point at.
        try (ibv_gid_entry entries = new ibv_gid_entry(Math.max(1, maxEntries))) {
            long n = DeviceVerbs.ibv_query_gid_table(handle, entries, maxEntries, 0);
            if (n < 0) {
                throw NativeErrors.failure((int) -n, "ibv_query_gid_table(" + maxEntries + ")");
            }
            List<GidEntry> table = new ArrayList<>((int) n);
            for (int i = 0; i < n; i++) {
                table.add(DeviceMapping.gidEntry(entries.position(i)));
            }
            entries.position(0);
            return List.copyOf(table);
        }
    }

    @Override
    public synchronized int queryPkey(int port, int index) {
        ensureOpen();
        checkPort(port);
        if (index < 0) {
            throw new VerbsException(Errno.EINVAL, "P_Key index " + index);
        }
        int pkey = DeviceVerbs.queryPkey(handle, port, index);
        if (pkey < 0) {
            throw NativeErrors.failure(-pkey, "ibv_query_pkey(port " + port + ", index " + index + ")");
        }
        return pkey;
    }

    @Override
    public synchronized int pkeyIndex(int port, int pkey) {
        ensureOpen();
        checkPort(port);
        if (pkey < 0 || pkey > 0xffff) {
            throw new VerbsException(Errno.EINVAL, "P_Key 0x" + Integer.toHexString(pkey) + " is not 16 bits");
        }
        int index = DeviceVerbs.getPkeyIndex(handle, port, pkey);
        if (index < 0) {
            throw NativeErrors.failure(-index, "ibv_get_pkey_index(port " + port + ", 0x" + Integer.toHexString(pkey) + ")");
        }
        return index;
    }

    /** Ports are a {@code uint8_t} in libibverbs: reject what the cast would wrap. */
    private static void checkPort(int port) {
        if (port < 1 || port > MAX_PORT) {
            throw new VerbsException(Errno.EINVAL, "port " + port + " (ports count from 1)");
        }
    }

    @Override
    public synchronized ProtectionDomain allocatePd() {
        ensureOpen();
        IbverbsPd pd = new IbverbsPd(this, NativeErrors.require(MemoryVerbs.ibv_alloc_pd(handle), "ibv_alloc_pd"));
        IbverbsPd[] next = java.util.Arrays.copyOf(pds, pds.length + 1);
        next[pds.length] = pd;
        pds = next;
        return pd;
    }

    @Override
    public synchronized CompletionChannel createCompletionChannel() {
        ensureOpen();
        ibv_comp_channel channel = NativeErrors.require(CompletionVerbs.ibv_create_comp_channel(handle),
                "ibv_create_comp_channel");
        int rc = FileDescriptors.setNonBlocking(channel.fd());
        if (rc != 0) {
            CompletionVerbs.ibv_destroy_comp_channel(channel);
            throw NativeErrors.failure(-rc, "fcntl(channel fd, O_NONBLOCK)");
        }
        return new IbverbsChannel(this, channel);
    }

    @Override
    public synchronized CompletionQueue createCq(int minEntries, CompletionChannel channel, int vector) {
        IbverbsChannel own = ownChannel(minEntries, channel);
        try {
            ibv_cq cq = NativeErrors.require(CompletionVerbs.ibv_create_cq(handle, minEntries, null,
                    own == null ? null : own.handle, vector), "ibv_create_cq(" + minEntries + ")");
            try {
                return new IbverbsCq(this, own, cq);
            } catch (RuntimeException closedMeanwhile) {
                CompletionVerbs.ibv_destroy_cq(cq);
                throw closedMeanwhile;
            }
        } finally {
            release(own);
        }
    }

    @Override
    public synchronized ExtendedCompletionQueue createExtendedCq(int minEntries, CompletionChannel channel, int vector,
                                                                 Set<WcField> fields, Set<CqCreateFlag> flags) {
        IbverbsChannel own = ownChannel(minEntries, channel);
        try {
            ibv_cq_ex cq;
            try (ibv_cq_init_attr_ex attr = new ibv_cq_init_attr_ex()) {
                attr.cqe(minEntries).channel(own == null ? null : own.handle).comp_vector(vector).wc_flags(WcField.mask(fields));
                if (!flags.isEmpty()) {
                    attr.comp_mask(IbverbsConstants.IBV_CQ_INIT_ATTR_MASK_FLAGS).flags(CqCreateFlag.mask(flags));
                }
                cq = NativeErrors.require(CompletionVerbs.ibv_create_cq_ex(handle, attr),
                        "ibv_create_cq_ex(" + minEntries + ", fields " + fields + ", flags " + flags + ")");
            }
            try {
                return new IbverbsExtendedCq(this, own, cq, fields);
            } catch (RuntimeException closedMeanwhile) {
                CompletionVerbs.ibv_destroy_cq(CompletionVerbs.ibv_cq_ex_to_cq(cq));
                throw closedMeanwhile;
            }
        } finally {
            release(own);
        }
    }

    private static void release(IbverbsChannel held) {
        if (held != null) {
            held.release();
        }
    }

    /** Checks a new queue's size and channel: the channel as this context's own, held until {@link #release}, or null. */
    private IbverbsChannel ownChannel(int minEntries, CompletionChannel channel) {
        ensureOpen();
        if (minEntries < 1) {
            throw new VerbsException(Errno.EINVAL, "CQ size " + minEntries);
        }
        IbverbsChannel own = null;
        if (channel != null) {
            if (!(channel instanceof IbverbsChannel c) || c.context != this) {
                throw new VerbsException(Errno.EINVAL, "completion channel belongs to another context");
            }
            own = c;
        }
        if (own != null) {
            // Held while libibverbs uses its pointer: a racing close fails with EBUSY.
            own.retain();
        }
        return own;
    }

    private final java.util.concurrent.atomic.AtomicLong freedRegions = new java.util.concurrent.atomic.AtomicLong();
    /** The live protection domains, replaced whole on change (read by polling threads). */
    private volatile IbverbsPd[] pds = new IbverbsPd[0];

    synchronized void pdClosed(IbverbsPd pd) {
        pds = java.util.Arrays.stream(pds).filter(p -> p != pd).toArray(IbverbsPd[]::new);
    }

    /** How many type 2 windows of this context are live. */
    private final java.util.concurrent.atomic.AtomicInteger type2Windows = new java.util.concurrent.atomic.AtomicInteger();

    /** How many type 2 windows of all open contexts are live. */
    private static final java.util.concurrent.atomic.AtomicInteger TYPE2_WINDOWS = new java.util.concurrent.atomic.AtomicInteger();

    void type2WindowOpened() {
        type2Windows.incrementAndGet();
        TYPE2_WINDOWS.incrementAndGet();
    }

    void type2WindowClosed() {
        type2Windows.decrementAndGet();
        TYPE2_WINDOWS.decrementAndGet();
    }

    /**
     * The live type 2 window whose key is {@code rkey} in any open context of this context's
     * device, or null: rxe looks a key up across the whole device, so a LOCAL_INV through one
     * context reaches a window another context allocated. While no context has a type 2
     * window, nothing is looked up.
     */
    IbverbsMw type2WindowOfDevice(int rkey) {
        if (TYPE2_WINDOWS.get() == 0) {
            return null;
        }
        for (IbverbsContext context : OPEN) {
            if (context.device.name().equals(device.name())) {
                IbverbsMw window = context.type2Window(rkey);
                if (window != null) {
                    return window;
                }
            }
        }
        return null;
    }

    /** Whether a type 2 window of this context is live: while none is, a receive's flags need not be read. */
    boolean hasType2Windows() {
        return type2Windows.get() > 0;
    }

    /** The vendor id the kernel's rxe reports (IBTA's "no vendor"). */
    private static final int RXE_VENDOR_ID = 0xFFFFFF;
    /** The kernel's {@code IB_WC_WITH_INVALIDATE}, which is {@code IBV_WC_IP_CSUM_OK} in libibverbs' numbering. */
    private static final int KERNEL_WITH_INVALIDATE = 1 << 2;
    /** {@link #invalidationFlags}, once asked; 0 before. */
    private volatile int invalidationFlags;

    /**
     * The {@code wc_flags} bits by which a receive of this device reports a peer's
     * SEND_WITH_INV: {@code IBV_WC_WITH_INV}, and on the kernel's rxe also bit 2, since rxe
     * writes the kernel's own flag into the completion (a finding of the suite). Elsewhere
     * bit 2 is {@code IBV_WC_IP_CSUM_OK} and says nothing of an invalidation.
     */
    int invalidationFlags() {
        int flags = invalidationFlags;
        if (flags == 0) {
            flags = WcFlag.WITH_INV.value() | (queryDevice().vendorId() == RXE_VENDOR_ID ? KERNEL_WITH_INVALIDATE : 0);
            invalidationFlags = flags;
        }
        return flags;
    }

    /**
     * A successful receive completed with {@code wcFlags}. When they report a peer's
     * SEND_WITH_INV ({@link #invalidationFlags}), the type 2 window of this context with key
     * {@code invalidatedRkey}, if any, is no longer bound, and a LOCAL_INV of it is refused
     * ({@link IbverbsMw#mayBeInvalidated}). Nothing is looked up while the context has no
     * type 2 window.
     */
    void received(int wcFlags, int invalidatedRkey) {
        if (hasType2Windows() && (wcFlags & invalidationFlags()) != 0) {
            invalidated(invalidatedRkey);
        }
    }

    /** The type 2 window of this context with key {@code rkey}, if any, was invalidated ({@link IbverbsMw#invalidated}). */
    void invalidated(int rkey) {
        IbverbsMw window = type2Window(rkey);
        if (window != null) {
            window.invalidated();
        }
    }

    /**
     * The live type 2 window of this context whose key is {@code rkey}, or null. While the
     * context has none, nothing is looked up: a LOCAL_INV of a fast-registered region's key
     * (the usual one) then costs one read of a counter, and no iterator.
     */
    IbverbsMw type2Window(int rkey) {
        if (!hasType2Windows()) {
            return null;
        }
        for (IbverbsPd pd : pds) {
            IbverbsMw w = pd.type2Window(rkey);
            if (w != null) {
                return w;
            }
        }
        return null;
    }

    /** An empty poll looks at one region of each domain for memory freed while registered ({@link RegionKeys#sweepOne}). */
    void sweepFreedMemory() {
        for (IbverbsPd pd : pds) {
            pd.regions.sweepOne();
        }
    }

    void freedRegionFound() {
        freedRegions.incrementAndGet();
    }

    @Override
    public long freedMemoryRegions() {
        return freedRegions.get();
    }

    @Override
    public Optional<AsyncEvent> nextAsyncEvent(Duration timeout) {
        return asyncEvents.next(timeout);
    }

    /** A raw {@code IBV_EVENT_*} number as an event type, or null for one the API does not name. */
    static AsyncEventType eventType(int value) {
        return value >= 0 && value < AsyncEventType.values().length ? AsyncEventType.of(value) : null;
    }

    /** Fails with {@code EBUSY} while a thread waits for async events: their descriptor would close under it. */
    @Override
    protected void destroy() {
        asyncEvents.checkNoWaiter();
        NativeErrors.checkErrno(DeviceVerbs.ibv_close_device(handle), "ibv_close_device");
        asyncEvents.free();
        OPEN.remove(this);
    }
}
