package dev.verbs4j.softroce;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AtomicCapability;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.CqCreateFlag;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.Gid;
import dev.verbs4j.GidEntry;
import dev.verbs4j.GidType;
import dev.verbs4j.Mtu;
import dev.verbs4j.OdpCapabilities;
import dev.verbs4j.OdpCapability;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.PortState;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcField;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.engine.DeviceLimits;
import dev.verbs4j.softroce.netdev.NetdevPort;
import dev.verbs4j.spi.Resource;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** An open soft device. */
final class SoftContext extends Resource implements DeviceContext {
    /** What a soft device can do, as {@code device_cap_flags_ex} bits. */
    static final long CAPABILITIES = DeviceCapability.BAD_PKEY_CNTR.value() | DeviceCapability.BAD_QKEY_CNTR.value()
            | DeviceCapability.SYS_IMAGE_GUID.value() | DeviceCapability.RC_RNR_NAK_GEN.value()
            | DeviceCapability.MEM_WINDOW.value() | DeviceCapability.MEM_WINDOW_TYPE_2B.value()
            | DeviceCapability.MEM_MGT_EXTENSIONS.value() | DeviceCapability.SRQ_RESIZE.value()
            | DeviceCapability.FLUSH_GLOBAL.value() | DeviceCapability.FLUSH_PERSISTENT.value()
            | DeviceCapability.ATOMIC_WRITE.value();

    /** On-Demand Paging as the kernel rxe offers it since 6.16: RC with FLUSH and ATOMIC WRITE, UD; no implicit ODP. */
    static final OdpCapabilities ODP = new OdpCapabilities(EnumSet.of(OdpCapability.SUPPORT),
            EnumSet.of(OdpTransportCapability.SEND, OdpTransportCapability.RECV, OdpTransportCapability.WRITE,
                    OdpTransportCapability.READ, OdpTransportCapability.ATOMIC, OdpTransportCapability.SRQ_RECV,
                    OdpTransportCapability.FLUSH, OdpTransportCapability.ATOMIC_WRITE),
            EnumSet.noneOf(OdpTransportCapability.class),
            EnumSet.of(OdpTransportCapability.SEND, OdpTransportCapability.RECV, OdpTransportCapability.SRQ_RECV),
            EnumSet.noneOf(OdpTransportCapability.class));

    /** The port's GID table: its address at index 0, the other slots empty. */
    static final int GID_TABLE_LENGTH = 16;
    /** The port's P_Key table holds the default P_Key alone. */
    static final int DEFAULT_PKEY = 0xffff;
    /** Completion timestamps count nanoseconds: a 1 GHz clock, every bit of it. */
    static final long CORE_CLOCK_KHZ = 1_000_000;
    static final long TIMESTAMP_MASK = -1L;
    /** The optional completion fields an extended queue of the soft device reports. */
    static final Set<WcField> EXTENDED_CQ_FIELDS = Set.copyOf(EnumSet.of(WcField.BYTE_LEN, WcField.IMM, WcField.QP_NUM,
            WcField.SRC_QP, WcField.SLID, WcField.SL, WcField.DLID_PATH_BITS, WcField.COMPLETION_TIMESTAMP,
            WcField.COMPLETION_TIMESTAMP_WALLCLOCK));

    /** One completion vector: completion events come from the device's engine. */
    static final int COMPLETION_VECTORS = 1;
    /** The port's {@code active_width} and {@code active_speed} codes: 1X at SDR, the lowest IBTA rate, for a UDP endpoint. */
    static final int WIDTH_1X = 1;
    static final int SPEED_SDR = 1;
    private static final AtomicInteger PD_HANDLES = new AtomicInteger(1);

    final SoftDevice device;
    final DeviceEngine engine;
    private int asyncWaiters; // guarded by this

    SoftContext(SoftDevice device, DeviceEngine engine) {
        super("device context " + device.name());
        this.device = device;
        this.engine = engine;
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public DeviceAttributes queryDevice() {
        ensureOpen();
        DeviceLimits l = device.config().limits();
        return new DeviceAttributes("verbs4j-soft 0.1", device.guid(), device.guid(), l.maxMrSize(), 0xfffff000L,
                0xFFFFFF, 0, 1, l.maxQp(), l.maxQpWr(), CAPABILITIES, l.maxSge(), l.maxSgeRd(), l.maxCq(), l.maxCqe(),
                l.maxMr(), l.maxPd(), l.maxQpRdAtom(), l.maxQpInitRdAtom(), AtomicCapability.GLOB, l.maxMw(), l.maxSrq(),
                l.maxSrqWr(), l.maxSrqSge(), 1, l.maxAh(), 1, ODP, l.maxInlineData(), TIMESTAMP_MASK, CORE_CLOCK_KHZ);
    }

    @Override
    public PortAttributes queryPort(int port) {
        ensureOpen();
        checkPort(port);
        NetdevPort netdev = device.netdevPort();
        if (netdev != null) {
            // rxe: the largest MTU is 4096 whatever the netdev's; the active one follows it.
            return new PortAttributes(netdev.active() ? PortState.ACTIVE : PortState.DOWN, Mtu.MTU_4096, netdev.activeMtu(),
                    GID_TABLE_LENGTH, 0, true, SPEED_SDR, WIDTH_1X, 1L << 31, 1);
        }
        // The active MTU fits the interface that holds the address, as rxe's follows its netdev's:
        // a RoCE packet is never fragmented, so a 1500-byte Ethernet carries 1024-byte payloads.
        return new PortAttributes(PortState.ACTIVE, device.config().mtu(), SoftCmRoutes.pathMtu(device), GID_TABLE_LENGTH, 0, true,
                SPEED_SDR, WIDTH_1X, 1L << 31, 1);
    }

    @Override
    public int completionVectorCount() {
        ensureOpen();
        return COMPLETION_VECTORS;
    }

    /** Empty slots read as {@link Gid#ZERO}, as {@code ibv_query_gid} reads them. */
    @Override
    public Gid queryGid(int port, int index) {
        ensureOpen();
        checkPort(port);
        checkGidIndex(index);
        NetdevPort netdev = device.netdevPort();
        if (netdev != null) {
            InetAddress a = netdev.gidAddress(index);
            return a == null ? Gid.ZERO : Gid.of(a);
        }
        return index == 0 ? Gid.of(device.config().address()) : Gid.ZERO;
    }

    @Override
    public GidEntry queryGidEntry(int port, int index) {
        ensureOpen();
        checkPort(port);
        checkGidIndex(index);
        NetdevPort netdev = device.netdevPort();
        if (netdev != null) {
            InetAddress a = netdev.gidAddress(index);
            if (a == null) {
                throw new VerbsException(Errno.ENODATA, "GID index " + index + " is empty");
            }
            return new GidEntry(Gid.of(a), index, 1, GidType.ROCE_V2, netdev.linkScope());
        }
        if (index != 0) {
            throw new VerbsException(Errno.ENODATA, "GID index " + index + " is empty");
        }
        return addressEntry();
    }

    @Override
    public List<GidEntry> queryGidTable(int maxEntries) {
        ensureOpen();
        NetdevPort netdev = device.netdevPort();
        if (netdev != null) {
            // As the kernel's table: the populated entries, by index, empty ones left out.
            InetAddress[] gids = netdev.gids();
            List<GidEntry> entries = new java.util.ArrayList<>();
            for (int i = 0; i < gids.length; i++) {
                if (gids[i] != null) {
                    entries.add(new GidEntry(Gid.of(gids[i]), i, 1, GidType.ROCE_V2, netdev.linkScope()));
                }
            }
            if (maxEntries < entries.size()) {
                throw new VerbsException(Errno.EINVAL, "room for " + maxEntries + " GID entries, " + entries.size() + " are populated");
            }
            return List.copyOf(entries);
        }
        if (maxEntries < 1) {
            throw new VerbsException(Errno.EINVAL, "room for " + maxEntries + " GID entries, 1 is populated");
        }
        return List.of(addressEntry());
    }

    /** Whether GID {@code index} of port 1 holds an address. */
    boolean gidPopulated(int index) {
        NetdevPort netdev = device.netdevPort();
        return netdev != null ? netdev.gidAddress(index) != null : index == 0;
    }

    /** The one populated entry: the device's address, a RoCE v2 GID of the interface that has it. */
    private GidEntry addressEntry() {
        InetAddress address = device.config().address();
        int ifIndex = 0;
        try {
            NetworkInterface nic = NetworkInterface.getByInetAddress(address);
            ifIndex = nic == null ? 0 : nic.getIndex();
        } catch (SocketException e) {
            // no interface holds it here: reported as none
        }
        return new GidEntry(Gid.of(address), 0, 1, GidType.ROCE_V2, Math.max(0, ifIndex));
    }

    private static void checkGidIndex(int index) {
        if (index < 0 || index >= GID_TABLE_LENGTH) {
            throw new VerbsException(Errno.EINVAL, "GID index " + index + " outside the table of " + GID_TABLE_LENGTH);
        }
    }

    @Override
    public int queryPkey(int port, int index) {
        ensureOpen();
        checkPort(port);
        if (index != 0) {
            throw new VerbsException(Errno.ENOENT, "P_Key index " + index + " (the table holds the default P_Key alone)");
        }
        return DEFAULT_PKEY;
    }

    @Override
    public int pkeyIndex(int port, int pkey) {
        ensureOpen();
        checkPort(port);
        if (pkey != DEFAULT_PKEY) {
            throw new VerbsException(Errno.ENOENT, "P_Key 0x" + Integer.toHexString(pkey) + " is not in the table");
        }
        return 0;
    }

    private static void checkPort(int port) {
        if (port != 1) {
            throw new VerbsException(Errno.EINVAL, "port " + port + " (the soft device has port 1)");
        }
    }

    @Override
    public ProtectionDomain allocatePd() {
        ensureOpen();
        return new SoftPd(this, PD_HANDLES.getAndIncrement());
    }

    @Override
    public CompletionChannel createCompletionChannel() {
        ensureOpen();
        return new SoftChannel(this);
    }

    @Override
    public CompletionQueue createCq(int minEntries, CompletionChannel channel, int vector) {
        checkCq(minEntries, channel, vector);
        return new SoftCq(this, minEntries, (SoftChannel) channel);
    }

    @Override
    public ExtendedCompletionQueue createExtendedCq(int minEntries, CompletionChannel channel, int vector,
                                                    Set<WcField> fields, Set<CqCreateFlag> flags) {
        checkCq(minEntries, channel, vector);
        for (WcField f : fields) {
            if (!EXTENDED_CQ_FIELDS.contains(f)) {
                throw new VerbsException(Errno.EOPNOTSUPP, "the soft device's completions do not report " + f);
            }
        }
        if (flags.contains(CqCreateFlag.IGNORE_OVERRUN)) {
            throw new VerbsException(Errno.EOPNOTSUPP, "a soft completion queue that overruns goes to error");
        }
        Instant now = Instant.now();
        long epochOffsetNs = now.getEpochSecond() * 1_000_000_000L + now.getNano() - System.nanoTime();
        return new SoftExtendedCq(this, minEntries, (SoftChannel) channel, fields, System::nanoTime, epochOffsetNs);
    }

    private void checkCq(int minEntries, CompletionChannel channel, int vector) {
        ensureOpen();
        int max = device.config().limits().maxCqe();
        if (minEntries < 1 || minEntries > max) {
            throw new VerbsException(Errno.EINVAL, "CQ size " + minEntries + " outside 1.." + max);
        }
        if (vector < 0 || vector >= COMPLETION_VECTORS) {
            // ib_uverbs refuses a vector at or past num_comp_vectors the same way.
            throw new VerbsException(Errno.EINVAL, "completion vector " + vector + " (the soft device has " + COMPLETION_VECTORS + ")");
        }
        if (channel != null && !(channel instanceof SoftChannel sc && sc.context == this)) {
            throw new VerbsException(Errno.EINVAL, "completion channel belongs to another context");
        }
    }

    @Override
    public Optional<AsyncEvent> nextAsyncEvent(Duration timeout) {
        synchronized (this) {
            ensureOpen();
            asyncWaiters++;
        }
        try {
            return Optional.ofNullable(device.asyncEvents.poll(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            synchronized (this) {
                asyncWaiters--;
            }
        }
    }

    /** Contexts of one device share its memory table, and so this count. */
    @Override
    public long freedMemoryRegions() {
        engine.lock().lock();
        try {
            return engine.memory().freedRegionsFound();
        } finally {
            engine.lock().unlock();
        }
    }

    /** Fails with {@code EBUSY} while a thread waits for async events, as the ibverbs provider does. */
    @Override
    protected void destroy() {
        if (asyncWaiters > 0) {
            throw new VerbsException(Errno.EBUSY, "a thread is waiting for async events of " + this);
        }
        device.contextClosed();
    }
}
