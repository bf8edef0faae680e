package dev.verbs4j.nvmeof.host;

import dev.verbs4j.QueuePair;

import java.lang.foreign.MemorySegment;

/**
 * How a host lets the controller reach one command's buffer: the key and address the keyed
 * SGL carries, made before the capsule is sent and, when {@link #invalidates()}, taken away
 * when the command ends, by the controller's SEND with invalidate or else by the host.
 */
interface BufferKeys extends AutoCloseable {
    /**
     * Grants the controller {@code length} bytes of {@code buffer} for the command in
     * {@code slot}, posting on {@code qp} what the grant needs (unsignaled, ahead of the
     * capsule's SEND).
     *
     * @param remoteWrite the controller writes (a read command), else it reads
     * @return the key for the SGL
     */
    int grant(int slot, MemorySegment buffer, int length, boolean remoteWrite, QueuePair qp);

    /** The address the SGL names for the buffer granted last in {@code slot}. */
    long address(int slot);

    /** Whether each grant must be invalidated before the slot is used again. */
    boolean invalidates();

    @Override
    void close();
}
