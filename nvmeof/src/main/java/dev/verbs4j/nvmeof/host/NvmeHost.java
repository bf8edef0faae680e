package dev.verbs4j.nvmeof.host;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.Provider;
import dev.verbs4j.RegisteredArena;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.nvmeof.NvmeException;
import dev.verbs4j.nvmeof.wire.Connect;
import dev.verbs4j.nvmeof.wire.IdentifyNamespace;
import dev.verbs4j.nvmeof.wire.Le;
import dev.verbs4j.nvmeof.wire.Nqn;
import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Properties;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An NVMe-oF RDMA host: connects the admin queue, enables the controller, identifies it,
 * asks for I/O queues and connects them, as the Linux host does. Reads and writes go
 * through {@link #ioQueue(int)}; their buffers come from {@link #allocateBuffer(long)}.
 */
public final class NvmeHost implements AutoCloseable {
    /** As the Linux host's default {@code admin_timeout}: a busy target may be slow to answer. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(60);
    /** The largest transfer a buffer key is made for: 64 pages. */
    static final int MAX_KEYED_BYTES = 256 * 1024;

    private final Provider provider;
    private final HostOptions options;
    private final CmEventChannel channel;
    private DeviceContext context;
    private ProtectionDomain pd;
    private RegisteredArena buffers;
    private KeyMethod keyMethod;
    private HostQueue admin;
    private final List<HostQueue> ioQueues = new ArrayList<>();
    private MemorySegment scratch;
    private final Command command = new Command();
    private ControllerIdentity identity;
    private int cntlid;
    private int grantedIoQueues;
    private final List<NamespaceInfo> namespaces = new ArrayList<>();
    private long lastKeepAliveNs;

    private NvmeHost(Provider provider, HostOptions options) {
        this.provider = provider;
        this.options = options;
        this.channel = provider.createCmEventChannel();
    }

    /**
     * Connects to an NVM subsystem: admin queue, controller enabled, identified, I/O queues
     * granted and connected, namespaces identified.
     *
     * @throws NvmeException when the controller refuses a step (with its status)
     */
    public static NvmeHost connect(Provider provider, HostOptions options) {
        NvmeHost host = new NvmeHost(provider, options);
        try {
            host.connectAdmin(options.keepAliveMs());
            host.enable();
            host.identifyController();
            host.grantedIoQueues = host.setQueueCount(options.ioQueues());
            for (int qid = 1; qid <= Math.min(options.ioQueues(), host.grantedIoQueues); qid++) {
                host.connectIoQueue(qid);
            }
            host.identifyNamespaces();
            return host;
        } catch (RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /**
     * Reads the discovery log page of the discovery controller at {@code options.target()}.
     *
     * @return the log page: header and entries ({@link dev.verbs4j.nvmeof.wire.DiscoveryLog})
     */
    public static MemorySegment discover(Provider provider, HostOptions options) {
        NvmeHost host = new NvmeHost(provider, options.withSubsystem(Nqn.DISCOVERY));
        try {
            host.connectAdmin(0);
            host.enable();
            host.identifyController();
            MemorySegment header = host.getLogPage(Opcodes.LOG_DISCOVERY, 0, 1024);
            long records = Le.u64(header, 8);
            int bytes = (int) (1024 + records * 1024);
            return host.getLogPage(Opcodes.LOG_DISCOVERY, 0, bytes);
        } finally {
            host.close();
        }
    }

    private void connectAdmin(int keepAliveMs) {
        admin = new HostQueue(this, channel, 0, HostOptions.ADMIN_QUEUE_DEPTH, 0, 0);
        scratch = allocateBuffer(MAX_KEYED_BYTES);
        MemorySegment data = scratch.asSlice(0, Connect.DATA_BYTES);
        Connect.data(data, 0, options.hostId(), Connect.CNTLID_DYNAMIC, options.subsystemNqn(), options.hostNqn());
        command.clear().fabrics(Opcodes.FCTYPE_CONNECT).data(data, true);
        Connect.command(command.bytes, 0, HostOptions.ADMIN_QUEUE_DEPTH - 1, keepAliveMs);
        cntlid = (int) admin.execute(command, ADMIN_TIMEOUT).result() & 0xffff;
        lastKeepAliveNs = System.nanoTime();
    }

    /**
     * Connects I/O queue {@code qid} (also one past what was granted, to see the controller refuse it).
     *
     * @throws NvmeException when the controller refuses the Connect
     */
    public HostQueue connectIoQueue(int qid) {
        int inCapsule = options.inCapsule() && identity != null ? identity.inCapsuleDataBytes() : 0;
        HostQueue queue = new HostQueue(this, channel, qid, options.queueDepth(), cntlid, inCapsule);
        try {
            MemorySegment data = scratch.asSlice(0, Connect.DATA_BYTES);
            Connect.data(data, 0, options.hostId(), cntlid, options.subsystemNqn(), options.hostNqn());
            command.clear().fabrics(Opcodes.FCTYPE_CONNECT).data(data, true);
            Connect.command(command.bytes, qid, options.queueDepth() - 1, 0);
            queue.execute(command, ADMIN_TIMEOUT);
        } catch (RuntimeException e) {
            queue.close();
            throw e;
        }
        ioQueues.add(queue);
        return queue;
    }

    private void enable() {
        setProperty(Properties.CC, Properties.enableValue());
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while ((getProperty(Properties.CSTS, false) & Properties.CSTS_READY) == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new NvmeException(NvmeException.TRANSPORT, "the controller did not become ready");
            }
            Thread.onSpinWait();
        }
    }

    /** Property Get: {@code eightBytes} for CAP. */
    public long getProperty(int offset, boolean eightBytes) {
        command.clear().fabrics(Opcodes.FCTYPE_PROPERTY_GET);
        Le.u8(command.bytes, Properties.ATTRIB, eightBytes ? 1 : 0);
        Le.u32(command.bytes, Properties.OFFSET, offset);
        return admin.execute(command, ADMIN_TIMEOUT).result();
    }

    public void setProperty(int offset, int value) {
        command.clear().fabrics(Opcodes.FCTYPE_PROPERTY_SET);
        Le.u8(command.bytes, Properties.ATTRIB, 0);
        Le.u32(command.bytes, Properties.OFFSET, offset);
        Le.u64(command.bytes, Properties.VALUE, value & 0xffffffffL);
        admin.execute(command, ADMIN_TIMEOUT);
    }

    private void identifyController() {
        MemorySegment data = scratch.asSlice(0, 4096);
        command.clear().opcode(Opcodes.ADMIN_IDENTIFY).cdw(10, Opcodes.CNS_CONTROLLER).data(data, false);
        admin.execute(command, ADMIN_TIMEOUT);
        identity = ControllerIdentity.parse(data);
        if (identity.cntlid() != cntlid) {
            throw new NvmeException(NvmeException.TRANSPORT, "Identify names controller " + identity.cntlid()
                    + ", Connect " + cntlid);
        }
        if (!identity.keyedSgls()) {
            throw new NvmeException(NvmeException.TRANSPORT, "the controller takes no keyed SGLs");
        }
    }

    private int setQueueCount(int wanted) {
        command.clear().opcode(Opcodes.ADMIN_SET_FEATURES).cdw(10, Opcodes.FEATURE_NUMBER_OF_QUEUES)
                .cdw(11, (wanted - 1) | (wanted - 1) << 16);
        long result = admin.execute(command, ADMIN_TIMEOUT).result();
        return (int) Math.min(result & 0xffff, (result >>> 16) & 0xffff) + 1;
    }

    private void identifyNamespaces() {
        MemorySegment list = scratch.asSlice(0, 4096);
        command.clear().opcode(Opcodes.ADMIN_IDENTIFY).cdw(10, Opcodes.CNS_ACTIVE_NAMESPACES).data(list, false);
        admin.execute(command, ADMIN_TIMEOUT);
        int[] ids = new int[1024];
        int count = 0;
        while (count < 1024 && Le.u32(list, count * 4L) != 0) {
            ids[count] = Le.u32(list, count * 4L);
            count++;
        }
        MemorySegment data = scratch.asSlice(0, 4096);
        for (int i = 0; i < count; i++) {
            command.clear().opcode(Opcodes.ADMIN_IDENTIFY).nsid(ids[i]).cdw(10, Opcodes.CNS_NAMESPACE).data(data, false);
            admin.execute(command, ADMIN_TIMEOUT);
            namespaces.add(new NamespaceInfo(ids[i], IdentifyNamespace.blocks(data, 0), IdentifyNamespace.blockShift(data, 0)));
        }
    }

    /** Get Log Page: {@code bytes} of log {@code lid} from {@code offset}, into a new heap copy. */
    public MemorySegment getLogPage(int lid, long offset, int bytes) {
        MemorySegment data = allocateBuffer(bytes);
        int dwords = bytes / 4 - 1;
        command.clear().opcode(Opcodes.ADMIN_GET_LOG_PAGE).cdw(10, lid | (dwords & 0xffff) << 16)
                .cdw(11, dwords >>> 16).cdw(12, (int) offset).cdw(13, (int) (offset >>> 32)).data(data, false);
        admin.execute(command, ADMIN_TIMEOUT);
        MemorySegment copy = MemorySegment.ofArray(new byte[bytes]);
        copy.copyFrom(data);
        return copy;
    }

    /** Sends Keep Alive when half the keep-alive timeout has passed since the last one. */
    public void keepAliveIfDue(long nowNs) {
        if (options.keepAliveMs() > 0 && nowNs - lastKeepAliveNs > options.keepAliveMs() * 500_000L) {
            command.clear().opcode(Opcodes.ADMIN_KEEP_ALIVE);
            admin.execute(command, ADMIN_TIMEOUT);
            lastKeepAliveNs = nowNs;
        }
    }

    /** Executes an admin command built by the caller and waits for it. */
    public Completion admin(Command c) {
        return admin.execute(c, ADMIN_TIMEOUT);
    }

    /**
     * Registered memory for data, living until the host closes. It starts on a 4 KiB page and
     * the pages it touches are registered whole: a fast registration maps whole pages, and
     * the soft provider maps only pages that lie in registered memory.
     */
    public MemorySegment allocateBuffer(long bytes) {
        long pages = (bytes + 4095) & ~4095L;
        return buffers.allocate(pages, 4096).asSlice(0, bytes);
    }

    public ControllerIdentity identity() {
        return identity;
    }

    public int cntlid() {
        return cntlid;
    }

    /**
     * The I/O queues the controller granted (Set Features, Number of Queues), which may be
     * more than were asked for: the Linux target grants all it has.
     */
    public int grantedIoQueues() {
        return grantedIoQueues;
    }

    /** The I/O queues connected: the options' count, or fewer when fewer were granted. */
    public int ioQueueCount() {
        return ioQueues.size();
    }

    public KeyMethod keyMethod() {
        return keyMethod;
    }

    public List<NamespaceInfo> namespaces() {
        return List.copyOf(namespaces);
    }

    /** I/O queue {@code qid}, 1 to the number connected. */
    public HostQueue ioQueue(int qid) {
        return ioQueues.get(qid - 1);
    }

    public HostQueue adminQueue() {
        return admin;
    }

    /** The protection domain on {@code device}, made with the data memory when the first queue resolves. */
    ProtectionDomain domain(Device device) {
        if (pd == null) {
            context = device.open();
            pd = context.allocatePd();
            keyMethod = options.keyMethod() != null ? options.keyMethod()
                    : KeyMethod.best(pd, context.queryDevice());
            buffers = RegisteredArena.of(pd, keyMethod.bufferAccess());
        } else if (!context.device().name().equals(device.name())) {
            // By name: a provider may hand each connection its own object for the same device.
            throw new IllegalStateException("queues resolved to two devices: " + context.device().name() + " and "
                    + device.name());
        }
        return pd;
    }

    /** Keys for one queue's {@code slots}. */
    BufferKeys keys(int slots) {
        return switch (keyMethod) {
            case FAST_REGISTER -> new FastRegisteredKeys(pd, slots, MAX_KEYED_BYTES);
            case WINDOW -> new WindowKeys(pd, buffers, slots);
            case REGION -> new RegionKeys(buffers, slots);
        };
    }

    HostOptions options() {
        return options;
    }

    /** Shuts the controller down (CC.SHN) when it is reachable, then disconnects every queue. */
    @Override
    public void close() {
        if (admin != null && !admin.failed()) {
            try {
                setProperty(Properties.CC, Properties.shutdownValue(Properties.enableValue()));
            } catch (NvmeException ignored) {
                // The controller is gone or refuses: disconnecting is all that is left.
            }
        }
        for (HostQueue q : ioQueues) {
            q.close();
        }
        ioQueues.clear();
        if (admin != null) {
            admin.close();
        }
        if (buffers != null) {
            buffers.close();
        }
        if (pd != null) {
            pd.close();
        }
        if (context != null) {
            context.close();
        }
        channel.close();
    }

    /** The NVMe status of a failed step, for messages. */
    static String describe(int status) {
        return status < 0 ? "transport failure" : NvmeStatus.describe(status);
    }
}
