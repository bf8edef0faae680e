package dev.verbs4j.softroce;

import dev.verbs4j.Device;
import dev.verbs4j.Errno;
import dev.verbs4j.Mtu;
import dev.verbs4j.VerbsException;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;

/** How the soft connection manager resolves addresses: the host's routing picks the source, a device owns it. */
final class SoftCmRoutes {
    private SoftCmRoutes() {
    }

    /**
     * The source address the host routes {@code destination} from.
     *
     * @throws VerbsException {@code ENETUNREACH} when there is no route, as {@code rdma_resolve_addr} fails then
     */
    static InetAddress sourceFor(InetAddress destination) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(destination, 9));
            InetAddress source = probe.getLocalAddress();
            if (source == null || source.isAnyLocalAddress()) {
                throw new VerbsException(Errno.ENETUNREACH, "no route to " + destination.getHostAddress());
            }
            return source;
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new VerbsException(Errno.ENETUNREACH.number(), "no route to " + destination.getHostAddress(), e);
        }
    }

    /** A device for a destination whose route has no soft device at its source: one on the destination's own subnet, else none. */
    static SoftDevice deviceFor(InetAddress destination) {
        for (Device d : new SoftProvider().devices()) {
            if (d instanceof SoftDevice soft && soft.config().address().equals(destination)) {
                return soft;
            }
        }
        return null;
    }

    /**
     * The path MTU a device offers: its own, or less when the interface that holds its address
     * carries less (what the kernel derives from the net device's MTU for RoCE).
     */
    static Mtu pathMtu(SoftDevice device) {
        Mtu mtu = device.config().mtu();
        try {
            NetworkInterface nic = NetworkInterface.getByInetAddress(device.config().address());
            if (nic != null && nic.getMTU() > 0) {
                Mtu fitting = Mtu.fittingEthernetMtu(nic.getMTU());
                return fitting.value() < mtu.value() ? fitting : mtu;
            }
        } catch (IOException e) {
            // no interface information: the device's own MTU
        }
        return mtu;
    }
}
