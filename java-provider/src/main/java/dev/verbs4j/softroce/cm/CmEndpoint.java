package dev.verbs4j.softroce.cm;

import dev.verbs4j.cm.ConnectionParameters;

/**
 * What a connection's owner (a connection-manager id) hears from the {@link CmAgent}. Called
 * on the engine's thread with its lock held.
 */
public interface CmEndpoint {
    /** Active side: the peer accepted (REP); bring the QP up, then {@link CmAgent#ready} or {@link CmAgent#reject}. */
    void onReply(CmConnection connection, ConnectionParameters peer);

    /** Passive side: the peer confirmed (RTU); the connection is up. */
    void onEstablished(CmConnection connection, ConnectionParameters peer);

    /** The peer refused: {@code reason} is the IBTA reject reason, {@code peer} carries its private data. */
    void onRejected(CmConnection connection, int reason, ConnectionParameters peer);

    /** The peer did not answer in time, after every retry. */
    void onUnreachable(CmConnection connection);

    /** The connection went down (a DREQ from either side). */
    void onDisconnected(CmConnection connection);

    /** Time-wait is over; the queue pair may be reused. */
    void onTimewaitExit(CmConnection connection);
}
