package dev.verbs4j.softroce;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AtomicCapability;
import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.Gid;
import dev.verbs4j.OdpCapabilities;
import dev.verbs4j.OdpCapability;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.PortState;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.engine.DeviceLimits;
import dev.verbs4j.spi.Resource;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** An open soft device. */
final class SoftContext extends Resource implements DeviceContext {
    /** What a soft device can do, as {@code device_cap_flags_ex} bits. */
    static final long CAPABILITIES = DeviceCapability.BAD_PKEY_CNTR.value() | DeviceCapability.BAD_QKEY_CNTR.value()
            | DeviceCapability.SYS_IMAGE_GUID.value() | DeviceCapability.RC_RNR_NAK_GEN.value()
            | DeviceCapability.MEM_WINDOW.value() | DeviceCapability.MEM_WINDOW_TYPE_2B.value()
            | DeviceCapability.MEM_MGT_EXTENSIONS.value()
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

    /** One completion vector: completion events come from the device's engine. */
    static final int COMPLETION_VECTORS = 1;
    /** The port's {@code active_width} and {@code active_speed} codes: 1X at SDR, the lowest IBTA rate, for a UDP endpoint. */
    static final int WIDTH_1X = 1;
    static final int SPEED_SDR = 1;
    private static final AtomicInteger PD_HANDLES = new AtomicInteger(1);

    final SoftDevice device;
    final DeviceEngine engine;

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
                l.maxSrqWr(), l.maxSrqSge(), 1, l.maxAh(), 1, ODP, l.maxInlineData());
    }

    @Override
    public PortAttributes queryPort(int port) {
        ensureOpen();
        checkPort(port);
        return new PortAttributes(PortState.ACTIVE, device.config().mtu(), device.config().mtu(), 1, 0, true, SPEED_SDR,
                WIDTH_1X, 1L << 31, 1);
    }

    @Override
    public int completionVectorCount() {
        ensureOpen();
        return COMPLETION_VECTORS;
    }

    @Override
    public Gid queryGid(int port, int index) {
        ensureOpen();
        checkPort(port);
        if (index != 0) {
            throw new VerbsException(Errno.EINVAL, "GID index " + index + " (the soft device has one GID)");
        }
        return Gid.of(device.config().address());
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
        return new SoftCq(this, minEntries, (SoftChannel) channel);
    }

    @Override
    public Optional<AsyncEvent> nextAsyncEvent(Duration timeout) {
        ensureOpen();
        try {
            return Optional.ofNullable(device.asyncEvents.poll(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
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

    @Override
    protected void destroy() {
        device.contextClosed();
    }
}
