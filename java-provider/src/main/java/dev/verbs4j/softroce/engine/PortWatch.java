package dev.verbs4j.softroce.engine;

import java.net.InetAddress;

/**
 * The port of a device made on a network interface: its GID table follows the interface's
 * addresses, which the engine looks at in its steps ({@link DeviceEngine#watch}).
 */
public interface PortWatch {
    /**
     * Looks at the interface if that is due at {@code nowNs}; called in every step, with the
     * engine's lock held, by the thread that steps it.
     *
     * @return how many things changed (work done)
     */
    int poll(long nowNs);

    /** The address GID {@code index} names (an {@code Inet4Address} for an IPv4-mapped GID), or null for an empty entry. */
    InetAddress gidAddress(int index);

    /** The interface's index: the scope of the link-local addresses the device sends to. */
    int linkScope();
}
