package dev.verbs4j.nvmeof.host;

/** What a command ended with: the controller's answer and how its buffer key ended. Reused by polls. */
public final class Completion {
    int commandId;
    int status;
    long result;
    boolean invalidatedByController;
    boolean invalidatedLocally;

    public int commandId() {
        return commandId;
    }

    /** The NVMe status field, or {@link dev.verbs4j.nvmeof.NvmeException#TRANSPORT} when the queue failed first. */
    public int status() {
        return status;
    }

    public long result() {
        return result;
    }

    /** The controller's SEND with invalidate took the buffer's key away (the completion said WITH_INV). */
    public boolean invalidatedByController() {
        return invalidatedByController;
    }

    /** The response left the key valid, so the host invalidated it itself (LOCAL_INV) before completing. */
    public boolean invalidatedLocally() {
        return invalidatedLocally;
    }

    /** Copies {@code other} into this one, to keep it past the next poll. */
    public Completion copyFrom(Completion other) {
        set(other.commandId, other.status, other.result, other.invalidatedByController, other.invalidatedLocally);
        return this;
    }

    void set(int commandId, int status, long result, boolean remote, boolean local) {
        this.commandId = commandId;
        this.status = status;
        this.result = result;
        this.invalidatedByController = remote;
        this.invalidatedLocally = local;
    }
}
