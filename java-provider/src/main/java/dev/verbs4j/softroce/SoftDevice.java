package dev.verbs4j.softroce;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.DeviceAgent;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.transport.FaultInjector;
import dev.verbs4j.softroce.transport.FaultyLink;
import dev.verbs4j.softroce.netdev.LinuxNetdevReader;
import dev.verbs4j.softroce.netdev.NetdevPort;
import dev.verbs4j.softroce.netdev.NetdevReader;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.transport.NetdevLink;
import dev.verbs4j.softroce.transport.PcapWriter;
import dev.verbs4j.softroce.transport.UdpLink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * A soft RoCE device. Its engine (a UDP socket and a thread) runs while at least one
 * context is open. A device made with {@link #manual} runs on a link the caller gives and
 * has no thread: the caller drives {@link #engine()} with its own clock. Its libibverbs
 * counterpart is an rxe device ({@code struct ibv_device} of the rxe provider); its engine
 * plays the part of the kernel's rdma_rxe module.
 */
public final class SoftDevice implements Device {
    /** System property: seeded faults on every soft device's sends, e.g. {@code loss:0.01,reorder:0.02,seed:7}. */
    public static final String FAULTS_PROPERTY = "verbs4j.soft.faults";
    /** System property: a folder; every soft device writes its traffic to {@code <folder>/<device>.pcap}. */
    public static final String PCAP_PROPERTY = "verbs4j.soft.pcap";

    private final SoftDeviceConfig config;
    private final Function<SoftDeviceConfig, Link> linkFactory;
    private final boolean threaded;
    /** The seed of a manual device's memory keys ({@link #manual(SoftDeviceConfig, Link, long)}). */
    private long keySeed;
    /** Whether an engine thread drives the device now (then polls {@linkplain DeviceEngine#help help} it). */
    private volatile boolean engineThread;
    private DeviceEngine engine;
    private DeviceAgent agent;
    private int openContexts;
    private PcapWriter pcap;
    final LinkedBlockingQueue<AsyncEvent> asyncEvents = new LinkedBlockingQueue<>();
    /** How the interface of a device made on one is read (the machine's, or a test's). */
    private NetdevReader netdevReader = new LinuxNetdevReader();
    /** The port of a device made on an interface while it is open; null otherwise. */
    private volatile NetdevPort netdevPort;

    SoftDevice(SoftDeviceConfig config) {
        this(config, c -> UdpLink.open(new InetSocketAddress(c.address(), c.port())), true);
    }

    SoftDevice(SoftDeviceConfig config, Function<SoftDeviceConfig, Link> linkFactory, boolean threaded) {
        this.config = config;
        this.linkFactory = config.netdev() != null ? this::openOnInterface : linkFactory;
        this.threaded = threaded;
    }

    /**
     * A device on an interface that {@code reader} reads, driven by the caller through
     * {@link #engine()} (tests): its sockets are {@code open}'s.
     */
    static SoftDevice manualOnInterface(SoftDeviceConfig config, NetdevReader reader,
                                        Function<InetSocketAddress, Link> open) {
        SoftDevice device = new SoftDevice(config, null, false);
        device.netdevReader = reader;
        device.socketOpener = open;
        return device;
    }

    private Function<InetSocketAddress, Link> socketOpener = UdpLink::open;

    /**
     * The link of a device on an interface: a socket on each address its GID table names
     * and the interface has, which follow the table as the engine's steps read the interface.
     */
    private Link openOnInterface(SoftDeviceConfig c) {
        NetdevPort port = new NetdevPort(c.netdev(), netdevReader, SoftContext.GID_TABLE_LENGTH, asyncEvents::offer);
        InetAddress[] addresses;
        try {
            addresses = port.start();
        } catch (IOException e) {
            throw new VerbsException(Errno.ENODEV.number(), "soft device " + c.name() + ": " + e.getMessage(), e);
        }
        NetdevLink link = new NetdevLink(addresses, c.port(), socketOpener);
        port.onBindable(link::bind);
        netdevPort = port;
        return link;
    }

    /** The port of a device made on an interface, while the device is open; null otherwise. */
    NetdevPort netdevPort() {
        return netdevPort;
    }

    /**
     * A device on {@code link} driven by the caller through {@link #engine()} (tests, simulations).
     *
     * @param config the device's name, address, ports, MTU and limits
     * @param link where its packets go and come from
     * @return the device, not listed by the provider
     */
    public static SoftDevice manual(SoftDeviceConfig config, Link link) {
        return manual(config, link, 0);
    }

    /**
     * A device on {@code link} driven by the caller, whose memory keys come from
     * {@code keySeed}: a simulation that draws everything else from a seed replays then the
     * same bytes on the wire, keys included. A manual device takes nothing from the machine
     * (no clock, no entropy) that its driver does not give it.
     *
     * @param config the device's name, address, ports, MTU and limits
     * @param link where its packets go and come from
     * @param keySeed the seed of the variant bits of its lkeys and rkeys
     * @return the device, not listed by the provider
     */
    public static SoftDevice manual(SoftDeviceConfig config, Link link, long keySeed) {
        SoftDevice device = new SoftDevice(config, c -> link, false);
        device.keySeed = keySeed;
        return device;
    }

    /**
     * How the device is set up.
     *
     * @return the configuration it was made with
     */
    public SoftDeviceConfig config() {
        return config;
    }

    @Override
    public String name() {
        return config.name();
    }

    /** Derived from the address (or the interface's name), as an EUI-64-like id: stable across runs. */
    @Override
    public long guid() {
        byte[] a = config.netdev() != null ? config.netdev().getBytes(java.nio.charset.StandardCharsets.UTF_8)
                : config.address().getAddress();
        long g = 0x0200_0000_0000_0000L;
        for (byte b : a) {
            g = g * 31 + (b & 0xff);
        }
        return g ^ config.port();
    }

    /** RoCE v2: the InfiniBand transport over UDP. */
    @Override
    public dev.verbs4j.Transport transport() {
        return dev.verbs4j.Transport.IB;
    }

    @Override
    public String providerName() {
        return SoftProvider.NAME;
    }

    @Override
    public DeviceContext open() {
        return new SoftContext(this, start());
    }

    /**
     * The running engine (starting it if needed); for manual devices and diagnostics.
     *
     * @return the engine
     * @throws IllegalStateException if the device is not open
     */
    public synchronized DeviceEngine engine() {
        if (engine == null) {
            throw new IllegalStateException("device " + name() + " is not open");
        }
        return engine;
    }

    private synchronized DeviceEngine start() {
        if (engine == null) {
            Link link;
            try {
                link = linkFactory.apply(config);
            } catch (UncheckedIOException e) {
                Errno errno = isAddressInUse(e.getCause()) ? Errno.EADDRINUSE : Errno.EADDRNOTAVAIL;
                throw new VerbsException(errno.number(), "soft device " + name() + ": " + e.getMessage(), e);
            }
            String faultSpec = System.getProperty(FAULTS_PROPERTY);
            if (faultSpec != null && !faultSpec.isBlank()) {
                link = new FaultyLink(link, FaultInjector.parse(faultSpec));
            }
            engine = new DeviceEngine(link, config.limits(), config.mtu(), config.peerPort(), asyncEvents::offer);
            if (netdevPort != null) {
                engine.watch(netdevPort);
            }
            if (!threaded) {
                engine.seedKeys(keySeed);
            }
            engine.monitor(name());
            String pcapDir = System.getProperty(PCAP_PROPERTY);
            if (pcapDir != null && !pcapDir.isBlank()) {
                capture(Path.of(pcapDir).resolve(name() + ".pcap"));
            }
            if (threaded && CallerProgress.enabled()) {
                CallerProgress.add(engine);
            } else if (threaded) {
                agent = new DeviceAgent(engine, link, name());
                engineThread = true;
            }
        }
        openContexts++;
        return engine;
    }

    /**
     * Writes every packet this device sends and receives to a pcap file that Wireshark
     * decodes as RoCEv2, until the device's last context closes.
     *
     * @throws IllegalStateException if the device is not open
     * @throws UncheckedIOException if the file cannot be created
     * @param file the pcap file to create; its folder is created too
     */
    public synchronized void capture(Path file) {
        if (engine == null) {
            throw new IllegalStateException("device " + name() + " is not open");
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            pcap = PcapWriter.create(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write capture " + file, e);
        }
        engine.capture(pcap);
    }

    /**
     * Whether a bind failed because another socket holds the address. java.net reports that
     * and a missing address ("Cannot assign requested address") alike, as BindException.
     */
    private static boolean isAddressInUse(Throwable cause) {
        return cause instanceof BindException b
                && (b.getMessage() == null || !b.getMessage().contains("Cannot assign requested address"));
    }

    /**
     * Whether the caller drives the engine ({@link #manual}): then it runs only on the
     * caller's steps, with the caller's clock, and posts and polls leave it alone.
     */
    boolean manual() {
        return !threaded;
    }

    boolean hasEngineThread() {
        return engineThread;
    }

    synchronized void contextClosed() {
        if (--openContexts == 0) {
            if (agent != null) {
                engineThread = false;
                agent.close();
                agent = null;
            }
            CallerProgress.remove(engine);
            engine.capture(null);
            engine.close();
            engine = null;
            netdevPort = null;
            if (pcap != null) {
                try {
                    pcap.close();
                } catch (IOException e) {
                    // the capture is best effort; the device is closed either way
                }
                pcap = null;
            }
        }
    }

    @Override
    public String toString() {
        return config.netdev() != null ? name() + " (netdev " + config.netdev() + ")"
                : name() + " (" + config.address().getHostAddress() + ":" + config.port() + ")";
    }
}
