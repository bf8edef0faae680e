package dev.verbs4j.softroce;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.PortSpace;
import dev.verbs4j.softroce.cm.CmListener;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The soft provider's connection-manager ports, process-wide: which id holds which port
 * of a port space on which address, and which of them listen. Binding follows the socket
 * rules: a port is taken on an address, and on every address by a wildcard bind.
 */
final class SoftCmPorts {
    private static final int EPHEMERAL_FIRST = 32768;
    private static final int EPHEMERAL_COUNT = 28232;
    private static final List<SoftCmId> BOUND = new ArrayList<>();

    private SoftCmPorts() {
    }

    /** Takes {@code port} (0 for a free one) on {@code address} (wildcard: every address) for {@code id}; returns the port. */
    static synchronized int bind(SoftCmId id, InetAddress address, int port) {
        if (port == 0) {
            int start = ThreadLocalRandom.current().nextInt(EPHEMERAL_COUNT);
            for (int i = 0; i < EPHEMERAL_COUNT; i++) {
                int candidate = EPHEMERAL_FIRST + (start + i) % EPHEMERAL_COUNT;
                if (free(id.portSpace(), address, candidate)) {
                    BOUND.add(id);
                    return candidate;
                }
            }
            throw new VerbsException(Errno.EADDRINUSE, "no free port in " + id.portSpace());
        }
        if (!free(id.portSpace(), address, port)) {
            throw new VerbsException(Errno.EADDRINUSE, "port " + port + " of " + id.portSpace() + " is taken on "
                    + address.getHostAddress());
        }
        BOUND.add(id);
        return port;
    }

    static synchronized void release(SoftCmId id) {
        BOUND.remove(id);
    }

    private static boolean free(PortSpace space, InetAddress address, int port) {
        for (SoftCmId other : BOUND) {
            if (other.portSpace() == space && other.boundPort() == port
                    && (other.boundAddress().isAnyLocalAddress() || address.isAnyLocalAddress()
                    || other.boundAddress().equals(address))) {
                return false;
            }
        }
        return true;
    }

    /** The listener for a request that reached {@code device} for {@code serviceId} and {@code destination}, or null. */
    static synchronized CmListener listener(SoftDevice device, long serviceId, InetAddress destination) {
        PortSpace space = PortSpace.ofServiceId(serviceId);
        if (space == null) {
            return null;
        }
        int port = (int) (serviceId & 0xFFFF);
        for (SoftCmId id : BOUND) {
            if (id.isListening() && id.portSpace() == space && id.boundPort() == port
                    && (id.boundAddress().isAnyLocalAddress() || id.boundAddress().equals(destination))
                    && (id.boundAddress().isAnyLocalAddress() || id.device() == device)) {
                return id.listenerOn(device);
            }
        }
        return null;
    }
}
