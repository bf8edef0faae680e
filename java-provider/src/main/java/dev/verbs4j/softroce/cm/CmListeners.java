package dev.verbs4j.softroce.cm;

import java.net.InetAddress;

/** Finds the listener for a connection request that reached a device. */
public interface CmListeners {
    /**
     * @param serviceId   the REQ's service id (port space and port)
     * @param destination the address the peer connected to (from the RDMA CM header)
     * @return the listener, or {@code null}: the request is rejected as for an invalid service id
     */
    CmListener find(long serviceId, InetAddress destination);
}
