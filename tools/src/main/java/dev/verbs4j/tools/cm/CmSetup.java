package dev.verbs4j.tools.cm;

import dev.verbs4j.Device;
import dev.verbs4j.Errno;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.softroce.SoftDevice;
import dev.verbs4j.softroce.SoftProvider;
import dev.verbs4j.tools.DeviceChoice;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The connection-manager steps the CM tools share: an event channel on the chosen provider,
 * an id resolved to a peer (address, then route, as librdmacm's programs do with 2-second
 * timeouts), a listener, and the check that the id landed on the device asked for.
 */
public final class CmSetup {
    /** What rping, perftest and librdmacm's examples give {@code rdma_resolve_addr} and {@code rdma_resolve_route}. */
    public static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(2);
    /** How long a tool waits for a connection event before it gives up. */
    public static final Duration EVENT_TIMEOUT = Duration.ofSeconds(15);

    private CmSetup() {
    }

    /**
     * The channel of {@code providerName}. For the soft provider, a device is made on
     * {@code softAddress} first unless one has that address (the soft provider's devices are
     * made, not found, and an id binds or resolves only to an address a device has).
     */
    public static CmEventChannel channel(String providerName, String softAddress) {
        if (softAddress != null && providerName.equals(SoftProvider.NAME)) {
            softDeviceOn(softAddress);
        }
        Provider provider = Verbs.provider(providerName);
        return provider.createCmEventChannel();
    }

    /** The soft device on {@code address}: the one that exists, or a new one (as {@code --address} makes it). */
    static Device softDeviceOn(String address) {
        InetAddress ip = InetAddress.ofLiteral(address);
        if (ip.isAnyLocalAddress()) {
            return null;
        }
        for (Device d : Verbs.provider(SoftProvider.NAME).devices()) {
            if (d instanceof SoftDevice soft && soft.config().address().equals(ip)) {
                return d;
            }
        }
        return DeviceChoice.choose(SoftProvider.NAME, null, address);
    }

    /**
     * A new TCP-space id resolved to {@code destination} (address, then route).
     *
     * @param source the local address to resolve from, or null
     * @throws VerbsException with the event's errno when a step fails
     */
    public static CmId resolve(CmEventChannel channel, InetSocketAddress source, InetSocketAddress destination) {
        CmId id = channel.createId(PortSpace.TCP);
        try {
            id.resolveAddress(source, destination, RESOLVE_TIMEOUT);
            channel.expect(CmEventType.ADDR_RESOLVED, EVENT_TIMEOUT);
            id.resolveRoute(RESOLVE_TIMEOUT);
            channel.expect(CmEventType.ROUTE_RESOLVED, EVENT_TIMEOUT);
            return id;
        } catch (RuntimeException e) {
            id.close();
            throw e;
        }
    }

    /** A TCP-space id bound to {@code address} and listening. */
    public static CmId listen(CmEventChannel channel, InetSocketAddress address, int backlog) {
        CmId id = channel.createId(PortSpace.TCP);
        try {
            id.bindAddress(address);
            id.listen(backlog);
            return id;
        } catch (RuntimeException e) {
            id.close();
            throw e;
        }
    }

    /** Waits for a connection request; {@code timeout} null waits as long as it takes, as the C servers do. */
    public static CmEvent awaitRequest(CmEventChannel channel, Duration timeout) {
        Duration step = timeout != null ? timeout : Duration.ofDays(1);
        while (true) {
            try {
                return channel.expect(CmEventType.CONNECT_REQUEST, step);
            } catch (VerbsException e) {
                if (timeout != null || e.errno() != Errno.ETIMEDOUT.number()) {
                    throw e;
                }
            }
        }
    }

    /** Refuses an id on another device than {@code deviceName} (null: any device). */
    public static void checkDevice(CmId id, String deviceName) {
        Device device = id.device();
        if (device == null) {
            throw new IllegalStateException("the connection manager gave the id no device");
        }
        if (deviceName != null && !device.name().equals(deviceName)) {
            throw new IllegalArgumentException("the address resolves to device " + device.name() + ", not " + deviceName);
        }
    }

    /** Whether a failure is the peer refusing the connection (nobody listening yet, or a reject). */
    public static boolean refused(RuntimeException e) {
        return e instanceof VerbsException v && v.errno() == Errno.ECONNREFUSED.number();
    }

    /** An address and port; {@code host} null or empty is the wildcard address. */
    public static InetSocketAddress address(String host, int port) {
        if (host == null || host.isEmpty()) {
            return new InetSocketAddress(port);
        }
        return new InetSocketAddress(host, port);
    }
}
