package dev.verbs4j.softroce;

import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.WcField;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * An extended completion queue: a cursor over the ring's oldest completion. An open poll
 * holds the queue's poll lock, so other pollers and a resize wait for its end. Timestamps
 * count the device clock in nanoseconds (a 1 GHz {@code hca_core_clock}); the wall-clock
 * time is that clock shifted by the offset to the epoch taken when the queue was made.
 */
final class SoftExtendedCq extends SoftCq implements ExtendedCompletionQueue {
    private final Set<WcField> fields;
    private final ReentrantLock pollLock = new ReentrantLock();
    private final long epochOffsetNs;
    private WorkCompletion current; // guarded by pollLock

    SoftExtendedCq(SoftContext context, int entries, SoftChannel channel, Set<WcField> fields, LongSupplier clock,
                   long epochOffsetNs) {
        super(context, entries, channel, clock);
        this.fields = Set.copyOf(fields);
        this.epochOffsetNs = epochOffsetNs;
    }

    @Override
    public Set<WcField> fields() {
        return fields;
    }

    @Override
    public int poll(WorkCompletion[] out, int max) {
        if (pollLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("this thread has a poll open on the queue: end it first");
        }
        pollLock.lock();
        try {
            return pollRing(out, max);
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public void resize(int minEntries) {
        if (pollLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("this thread has a poll open on the queue: end it first");
        }
        pollLock.lock();
        try {
            super.resize(minEntries);
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public boolean startPoll() {
        ensureOpen();
        if (pollLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("this thread already has a poll open on the queue");
        }
        pollLock.lock();
        WorkCompletion oldest = ring.oldest();
        if (oldest == null) {
            help();
            oldest = ring.oldest();
        } else {
            stillPolling();
        }
        if (oldest == null) {
            pollLock.unlock();
            return false;
        }
        current = oldest;
        return true;
    }

    @Override
    public boolean nextPoll() {
        requireOpenPoll();
        ring.consume();
        WorkCompletion next = ring.oldest();
        if (next == null) {
            current = null;
            return false;
        }
        current = next;
        return true;
    }

    @Override
    public void endPoll() {
        requireOpenPoll();
        if (current != null) {
            ring.consume();
            current = null;
        }
        pollLock.unlock();
    }

    private void requireOpenPoll() {
        if (!pollLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("no poll is open on the queue in this thread");
        }
    }

    private WorkCompletion current() {
        if (!pollLock.isHeldByCurrentThread() || current == null) {
            throw new IllegalStateException("no completion is current: read within startPoll/nextPoll and endPoll");
        }
        return current;
    }

    private WorkCompletion current(WcField field) {
        if (!fields.contains(field)) {
            throw new IllegalStateException("the queue was made without " + field);
        }
        return current();
    }

    @Override
    public long wrId() {
        return current().wrId();
    }

    @Override
    public WcStatus status() {
        return current().status();
    }

    @Override
    public WcOpcode opcode() {
        return current().opcode();
    }

    @Override
    public int vendorError() {
        return current().vendorError();
    }

    @Override
    public int wcFlags() {
        return current().flags();
    }

    @Override
    public int byteLength() {
        return current(WcField.BYTE_LEN).byteLength();
    }

    @Override
    public int immData() {
        return current(WcField.IMM).immData();
    }

    @Override
    public int invalidatedRkey() {
        return current(WcField.IMM).invalidatedRkey();
    }

    @Override
    public int qpNum() {
        return current(WcField.QP_NUM).qpNum();
    }

    @Override
    public int srcQp() {
        return current(WcField.SRC_QP).srcQp();
    }

    /** RoCE has no LIDs. */
    @Override
    public int slid() {
        current(WcField.SLID);
        return 0;
    }

    /** The soft device sends at service level 0. */
    @Override
    public int sl() {
        current(WcField.SL);
        return 0;
    }

    @Override
    public int dlidPathBits() {
        current(WcField.DLID_PATH_BITS);
        return 0;
    }

    @Override
    public long completionTimestamp() {
        current(WcField.COMPLETION_TIMESTAMP);
        return ring.oldestStamp();
    }

    @Override
    public long completionTimestampWallclockNs() {
        current(WcField.COMPLETION_TIMESTAMP_WALLCLOCK);
        return ring.oldestStamp() + epochOffsetNs;
    }

    /** A queue closed with a poll open in this thread ends it. */
    @Override
    protected void destroy() {
        if (pollLock.isHeldByCurrentThread()) {
            current = null;
            pollLock.unlock();
        }
        super.destroy();
    }
}
