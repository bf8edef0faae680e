package dev.verbs4j.nvmeof.controller;

import java.net.InetSocketAddress;

/**
 * How a target serves.
 *
 * @param address where the RDMA CM listener binds (port 4420 is NVMe-oF's)
 * @param maxQueueEntries the deepest I/O queue a host may ask for (CAP.MQES + 1, MAXCMD)
 * @param inCapsuleDataBytes data an I/O capsule may carry after its 64-byte command (IOCCSZ)
 * @param maxTransferShift MDTS: the largest transfer is {@code 4096 << maxTransferShift} bytes
 * @param maxIoQueues the most I/O queues a controller grants
 * @param keepAliveUnits KAS, the keep-alive granularity in 100 ms units
 * @param remoteInvalidate whether responses invalidate a key when the host asks (SEND with invalidate)
 */
public record TargetOptions(InetSocketAddress address, int maxQueueEntries, int inCapsuleDataBytes,
                            int maxTransferShift, int maxIoQueues, int keepAliveUnits, boolean remoteInvalidate) {
    public static final int DEFAULT_PORT = 4420;
    /** The admin queue depth the Linux host asks for (NVME_AQ_DEPTH) and the most this target takes. */
    public static final int ADMIN_QUEUE_ENTRIES = 32;

    public TargetOptions {
        if (maxQueueEntries < 2 || maxQueueEntries > 1024) {
            throw new IllegalArgumentException("queue entries " + maxQueueEntries + " outside 2..1024");
        }
        if (inCapsuleDataBytes < 0 || inCapsuleDataBytes % 16 != 0) {
            throw new IllegalArgumentException("in-capsule data " + inCapsuleDataBytes + " is not a multiple of 16");
        }
        if (maxTransferShift < 0 || maxTransferShift > 8) {
            throw new IllegalArgumentException("MDTS " + maxTransferShift + " outside 0..8");
        }
        if (maxIoQueues < 1 || maxIoQueues > 1024) {
            throw new IllegalArgumentException("I/O queues " + maxIoQueues + " outside 1..1024");
        }
    }

    /** The defaults on {@code address}: 128 entries, 4 KiB in capsule, 128 KiB transfers, 8 I/O queues, KAS 1 s. */
    public static TargetOptions defaults(InetSocketAddress address) {
        return new TargetOptions(address, 128, 4096, 5, 8, 10, true);
    }

    public int maxTransferBytes() {
        return 4096 << maxTransferShift;
    }

    public TargetOptions withRemoteInvalidate(boolean on) {
        return new TargetOptions(address, maxQueueEntries, inCapsuleDataBytes, maxTransferShift, maxIoQueues,
                keepAliveUnits, on);
    }

    public TargetOptions withMaxIoQueues(int queues) {
        return new TargetOptions(address, maxQueueEntries, inCapsuleDataBytes, maxTransferShift, queues,
                keepAliveUnits, remoteInvalidate);
    }
}
