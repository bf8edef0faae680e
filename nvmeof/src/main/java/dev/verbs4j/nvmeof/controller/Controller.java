package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.nvmeof.wire.Properties;

/**
 * One controller: what a host's admin Connect makes and its I/O Connects join. It holds the
 * properties (CC, CSTS), the granted queue count, the keep-alive deadline and the queues.
 * A discovery controller has no subsystem.
 */
final class Controller {
    final int cntlid;
    final Subsystem subsystem;
    final String hostNqn;
    final byte[] hostId;
    final TargetQueue[] queues;
    final int maxQueueEntries;
    int cc;
    int csts;
    int grantedIoQueues;
    /** KATO in milliseconds, an unsigned 32-bit value as the host sent it; 0 for none. */
    long keepAliveMs;
    long keepAliveDeadlineNs;
    int asyncEventConfig;
    final int[] pendingAsyncEvents = new int[4];
    int pendingAsyncEventCount;

    Controller(int cntlid, Subsystem subsystem, String hostNqn, byte[] hostId, int maxIoQueues, int maxQueueEntries) {
        this.cntlid = cntlid;
        this.subsystem = subsystem;
        this.hostNqn = hostNqn;
        this.hostId = hostId.clone();
        this.queues = new TargetQueue[maxIoQueues + 1];
        this.grantedIoQueues = maxIoQueues;
        this.maxQueueEntries = maxQueueEntries;
    }

    boolean discovery() {
        return subsystem == null;
    }

    boolean ready() {
        return (csts & Properties.CSTS_READY) != 0;
    }

    void keepAlive(long nowNs) {
        keepAliveDeadlineNs = nowNs + keepAliveMs * 1_000_000L;
    }

    boolean keepAliveExpired(long nowNs) {
        return keepAliveMs != 0 && nowNs - keepAliveDeadlineNs > 0;
    }

    /**
     * A property write: CC.EN rising makes the controller ready when the entry sizes are the
     * fabrics' (64 and 16 bytes), else fatal; falling resets it; a shutdown notification
     * completes at once (nothing is cached that a flush would not already have written).
     */
    void writeCc(int value) {
        int before = cc;
        cc = value;
        if ((value & Properties.CC_ENABLE) != 0 && (before & Properties.CC_ENABLE) == 0) {
            boolean sizes = Properties.ioSqEntrySizeShift(value) == 6 && Properties.ioCqEntrySizeShift(value) == 4;
            csts = sizes || discovery() ? Properties.CSTS_READY : Properties.CSTS_FATAL;
        } else if ((value & Properties.CC_ENABLE) == 0 && (before & Properties.CC_ENABLE) != 0) {
            csts = 0;
            pendingAsyncEventCount = 0;
        }
        if ((value & Properties.CC_SHUTDOWN_MASK) != 0) {
            csts = (csts & ~(3 << 2)) | Properties.CSTS_SHUTDOWN_COMPLETE;
        } else {
            csts &= ~(3 << 2);
        }
    }
}
