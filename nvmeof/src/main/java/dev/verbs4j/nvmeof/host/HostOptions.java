package dev.verbs4j.nvmeof.host;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * How a host connects.
 *
 * @param source the local address to connect from (its device is the one used), or null
 * @param target the controller's address (port 4420 by default)
 * @param subsystemNqn the subsystem to connect to
 * @param hostNqn this host's NQN
 * @param hostId this host's 128-bit identifier
 * @param ioQueues how many I/O queues to ask for
 * @param queueDepth entries per I/O queue
 * @param keepAliveMs KATO, 0 for none
 * @param keyMethod how buffer keys are made, or null for the best the device offers
 * @param inCapsule whether writes that fit go in the capsule
 */
public record HostOptions(InetSocketAddress source, InetSocketAddress target, String subsystemNqn, String hostNqn,
                          byte[] hostId, int ioQueues, int queueDepth, int keepAliveMs, KeyMethod keyMethod,
                          boolean inCapsule) {
    /** The admin queue's depth, the Linux host's NVME_AQ_DEPTH. */
    public static final int ADMIN_QUEUE_DEPTH = 32;

    public HostOptions {
        hostId = hostId.clone();
        if (hostId.length != 16) {
            throw new IllegalArgumentException("a host id has 16 bytes, not " + hostId.length);
        }
        if (queueDepth < 2 || queueDepth > 1024) {
            throw new IllegalArgumentException("queue depth " + queueDepth + " outside 2..1024");
        }
    }

    /** One I/O queue of 32 entries, keep-alive 5 s, the best key method, in-capsule writes; a host id from the NQN. */
    public static HostOptions of(InetSocketAddress source, InetSocketAddress target, String subsystemNqn,
                                 String hostNqn) {
        UUID id = UUID.nameUUIDFromBytes(hostNqn.getBytes(StandardCharsets.UTF_8));
        byte[] hostId = java.nio.ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits()).array();
        return new HostOptions(source, target, subsystemNqn, hostNqn, hostId, 1, 32, 5000, null, true);
    }

    @Override
    public byte[] hostId() {
        return hostId.clone();
    }

    public HostOptions withQueues(int queues, int depth) {
        return new HostOptions(source, target, subsystemNqn, hostNqn, hostId, queues, depth, keepAliveMs, keyMethod,
                inCapsule);
    }

    public HostOptions withSubsystem(String nqn) {
        return new HostOptions(source, target, nqn, hostNqn, hostId, ioQueues, queueDepth, keepAliveMs, keyMethod,
                inCapsule);
    }

    public HostOptions withHostNqn(String nqn) {
        return new HostOptions(source, target, subsystemNqn, nqn, hostId, ioQueues, queueDepth, keepAliveMs, keyMethod,
                inCapsule);
    }

    public HostOptions withKeepAliveMs(int kato) {
        return new HostOptions(source, target, subsystemNqn, hostNqn, hostId, ioQueues, queueDepth, kato, keyMethod,
                inCapsule);
    }

    public HostOptions withKeyMethod(KeyMethod method) {
        return new HostOptions(source, target, subsystemNqn, hostNqn, hostId, ioQueues, queueDepth, keepAliveMs, method,
                inCapsule);
    }

    public HostOptions withInCapsule(boolean on) {
        return new HostOptions(source, target, subsystemNqn, hostNqn, hostId, ioQueues, queueDepth, keepAliveMs,
                keyMethod, on);
    }
}
