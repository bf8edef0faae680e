package dev.verbs4j.softroce.cm;

import dev.verbs4j.cm.ConnectionParameters;

import java.net.InetSocketAddress;

/** A listening id, as the {@link CmAgent} sees it. Called on the engine's thread with its lock held. */
public interface CmListener {
    /**
     * A connection request for this listener.
     *
     * @param peer      what the peer offers, its private data after the RDMA CM header
     * @param from      the peer's address and port (from the RDMA CM header)
     * @param to        the address and port the peer connected to
     * @return the endpoint of the new connection, or {@code null} when the listener takes no
     *         more (the request is then dropped, and the peer may retry)
     */
    CmEndpoint onRequest(CmConnection connection, ConnectionParameters peer, InetSocketAddress from, InetSocketAddress to);
}
