package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.RcOptions;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.transport.InMemoryNetwork;
import dev.verbs4j.softroce.transport.Link;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.EnumSet;
import java.util.function.UnaryOperator;

/**
 * Two soft devices on an {@link InMemoryNetwork}, driven by a fake clock: no sockets, no
 * threads, no sleeping. Idle steps jump the clock so timers fire at once.
 */
final class SimulatedPair {
    final InMemoryNetwork network;
    final SoftDevice deviceA;
    final SoftDevice deviceB;
    long nowNs = 1_000_000_000L;
    private DeviceEngine engineA;
    private DeviceEngine engineB;

    SimulatedPair(long seed) {
        this(seed, UnaryOperator.identity());
    }

    /** A pair whose links are wrapped, e.g. to watch or drop chosen packets. */
    SimulatedPair(long seed, UnaryOperator<Link> wrap) {
        this(seed, "sim-a", "sim-b", wrap);
    }

    /** A pair whose devices have the given names (their MBeans' and events' names). */
    SimulatedPair(long seed, String nameA, String nameB, UnaryOperator<Link> wrap) {
        network = new InMemoryNetwork(seed);
        deviceA = device(nameA, "10.77.0.1", wrap, seed * 0x9E3779B97F4A7C15L + 1);
        deviceB = device(nameB, "10.77.0.2", wrap, seed * 0x9E3779B97F4A7C15L + 2);
    }

    /** A device whose memory keys come from {@code keySeed}: with the network's seed, a run's bytes are the seed's alone. */
    private SoftDevice device(String name, String ip, UnaryOperator<Link> wrap, long keySeed) {
        try {
            InetAddress address = InetAddress.getByName(ip);
            SoftDeviceConfig config = SoftDeviceConfig.of(name, address);
            return SoftDevice.manual(config, wrap.apply(network.attach(new InetSocketAddress(address, config.port()))), keySeed);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Connects an RC pair through the simulated network. */
    RcPair connect(long bufferSize, int depth, int timeout) {
        return connect(bufferSize, depth, new RcOptions().timeout(timeout).retryCount(7).rnrRetry(7).minRnrTimer(1));
    }

    /** Connects an RC pair with the given options (access defaults to everything but persistence). */
    RcPair connect(long bufferSize, int depth, RcOptions options) {
        options.access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC,
                Access.FLUSH_GLOBAL));
        RcPair pair = new RcPair(deviceA, deviceB, bufferSize, depth, options, this::step);
        engineA = deviceA.engine();
        engineB = deviceB.engine();
        return pair;
    }

    /** Runs steps until {@code done} holds or {@code maxSteps} pass; returns whether it held. */
    boolean runUntil(java.util.function.BooleanSupplier done, int maxSteps) {
        for (int i = 0; i < maxSteps; i++) {
            if (done.getAsBoolean()) {
                return true;
            }
            step();
        }
        return done.getAsBoolean();
    }

    /** One step of both engines; an idle step advances the clock by half a millisecond. */
    int step() {
        if (engineA == null) {
            engineA = deviceA.engine();
            engineB = deviceB.engine();
        }
        int work = engineA.doWork(nowNs) + engineB.doWork(nowNs);
        nowNs += work == 0 ? 500_000 : 1_000;
        return work;
    }
}
