package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.wire.NvmeStatus;

/**
 * The one exception of this module: a command that ended with an NVMe status other than
 * success, or a queue the transport lost ({@link #TRANSPORT}), or a connection refused
 * with an RDMA CM reject status.
 */
public final class NvmeException extends RuntimeException {
    /** The status of a command whose queue failed before it had a response. */
    public static final int TRANSPORT = -1;

    private final int status;

    public NvmeException(int status, String message) {
        super(message + (status >= 0 ? " (" + NvmeStatus.describe(status) + ")" : ""));
        this.status = status;
    }

    public NvmeException(int status, String message, Throwable cause) {
        this(status, message);
        initCause(cause);
    }

    /** The NVMe status field ({@link NvmeStatus}), or {@link #TRANSPORT}. */
    public int status() {
        return status;
    }
}
