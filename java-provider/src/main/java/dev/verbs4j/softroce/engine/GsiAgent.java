package dev.verbs4j.softroce.engine;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

/**
 * What takes the management datagrams (MADs) a device receives on QP1, the general
 * services interface, and keeps their timers: the connection manager. Called on the
 * thread that drives the engine, with the engine's lock held.
 */
public interface GsiAgent {
    /**
     * A MAD arrived.
     *
     * @param mad    its {@value DeviceEngine#MAD_SIZE} bytes, valid only during the call
     * @param source the sender's IP address
     * @param nowNs  the engine's clock
     */
    void onMad(MemorySegment mad, InetAddress source, long nowNs);

    /** Runs what is due (retransmissions, time-outs) at {@code nowNs}; returns the work done. */
    int doWork(long nowNs);
}
