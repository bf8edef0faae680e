package dev.verbs4j.softroce;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.DeviceAgent;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.transport.UdpLink;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * A soft RoCE device. Its engine (a UDP socket and a thread) runs while at least one
 * context is open. A device made with {@link #manual} runs on a link the caller gives and
 * has no thread: the caller drives {@link #engine()} with its own clock.
 */
public final class SoftDevice implements Device {
    private final SoftDeviceConfig config;
    private final Function<SoftDeviceConfig, Link> linkFactory;
    private final boolean threaded;
    private DeviceEngine engine;
    private DeviceAgent agent;
    private int openContexts;
    final LinkedBlockingQueue<AsyncEvent> asyncEvents = new LinkedBlockingQueue<>();

    SoftDevice(SoftDeviceConfig config) {
        this(config, c -> new UdpLink(new InetSocketAddress(c.address(), c.port())), true);
    }

    private SoftDevice(SoftDeviceConfig config, Function<SoftDeviceConfig, Link> linkFactory, boolean threaded) {
        this.config = config;
        this.linkFactory = linkFactory;
        this.threaded = threaded;
    }

    /** A device on {@code link} driven by the caller through {@link #engine()} (tests, simulations). */
    public static SoftDevice manual(SoftDeviceConfig config, Link link) {
        return new SoftDevice(config, c -> link, false);
    }

    public SoftDeviceConfig config() {
        return config;
    }

    @Override
    public String name() {
        return config.name();
    }

    /** Derived from the address, as an EUI-64-like id: stable across runs. */
    @Override
    public long guid() {
        byte[] a = config.address().getAddress();
        long g = 0x0200_0000_0000_0000L;
        for (byte b : a) {
            g = g * 31 + (b & 0xff);
        }
        return g ^ config.port();
    }

    @Override
    public String providerName() {
        return SoftProvider.NAME;
    }

    @Override
    public DeviceContext open() {
        return new SoftContext(this, start());
    }

    /** The running engine (starting it if needed); for manual devices and diagnostics. */
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
                Errno errno = e.getCause() instanceof BindException ? Errno.EADDRINUSE : Errno.EADDRNOTAVAIL;
                throw new VerbsException(errno.number(), "soft device " + name() + ": " + e.getMessage(), e);
            }
            engine = new DeviceEngine(link, config.limits(), config.peerPort(), asyncEvents::offer);
            if (threaded) {
                agent = new DeviceAgent(engine, link, name());
            }
        }
        openContexts++;
        return engine;
    }

    synchronized void contextClosed() {
        if (--openContexts == 0) {
            if (agent != null) {
                agent.close();
                agent = null;
            }
            engine.close();
            engine = null;
        }
    }

    @Override
    public String toString() {
        return name() + " (" + config.address().getHostAddress() + ":" + config.port() + ")";
    }
}
