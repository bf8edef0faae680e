package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.ExtendedCompletionQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcField;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.ibverbs.binding.CompletionVerbs;
import dev.verbs4j.ibverbs.binding.ExtendedCompletionVerbs;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.ibv_cq_ex;

import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An extended completion queue ({@code struct ibv_cq_ex}). Providers lock the queue from
 * {@code ibv_start_poll} to {@code ibv_end_poll}, and the readers of fields not asked for at
 * creation are null function pointers: so every call checks here first that a poll is open
 * in this thread and that the field was asked for, and an open poll holds the queue's poll
 * lock, which {@link #poll}, {@link #resize} and {@link #close} take too.
 */
final class IbverbsExtendedCq extends IbverbsCq implements ExtendedCompletionQueue {
    private static final int ENOENT = 2;

    private final ibv_cq_ex extended;
    private final Set<WcField> fields;
    private final ReentrantLock pollLock = new ReentrantLock();
    private boolean hasCurrent; // guarded by pollLock

    IbverbsExtendedCq(IbverbsContext context, IbverbsChannel channel, ibv_cq_ex extended, Set<WcField> fields) {
        super(context, channel, CompletionVerbs.ibv_cq_ex_to_cq(extended));
        this.extended = extended;
        this.fields = Set.copyOf(fields);
    }

    @Override
    public Set<WcField> fields() {
        return fields;
    }

    @Override
    public int poll(WorkCompletion[] out, int max) {
        lockOutsidePoll();
        try {
            return super.poll(out, max);
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public void resize(int minEntries) {
        lockOutsidePoll();
        try {
            super.resize(minEntries);
        } finally {
            pollLock.unlock();
        }
    }

    /** Set under the poll lock once the queue is destroyed: no poll may start on freed memory. */
    private boolean destroyed;

    private void lockOutsidePoll() {
        if (pollLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("this thread has a poll open on the queue: end it first");
        }
        pollLock.lock();
    }

    @Override
    public boolean startPoll() {
        lockOutsidePoll();
        try {
            // destroyed, not only ensureOpen: a close marks the resource closed only after
            // destroy() returns, and the poll lock is free again in between.
            if (destroyed) {
                throw new IllegalStateException("the completion queue is closed");
            }
            ensureOpen();
        } catch (IllegalStateException closed) {
            pollLock.unlock();
            throw closed;
        }
        int rc = ExtendedCompletionVerbs.ibv_start_poll(extended, null);
        if (rc == 0) {
            hasCurrent = true;
            noteInvalidation();
            return true;
        }
        pollLock.unlock();
        if (rc == ENOENT) {
            return false;
        }
        throw NativeErrors.failure(rc, "ibv_start_poll");
    }

    @Override
    public boolean nextPoll() {
        requireOpenPoll();
        int rc = ExtendedCompletionVerbs.ibv_next_poll(extended);
        hasCurrent = rc == 0;
        if (hasCurrent) {
            noteInvalidation();
        }
        if (rc == 0 || rc == ENOENT) {
            return hasCurrent;
        }
        throw NativeErrors.failure(rc, "ibv_next_poll");
    }

    @Override
    public void endPoll() {
        requireOpenPoll();
        ExtendedCompletionVerbs.ibv_end_poll(extended);
        hasCurrent = false;
        pollLock.unlock();
    }

    /**
     * Tells the context of a peer's SEND_WITH_INV that the current completion reports
     * ({@link IbverbsContext#received}). It costs two reads (opcode, flags) per completion
     * while the context has type 2 windows, and none otherwise; a queue made without
     * {@link WcField#IMM} cannot read the invalidated key, so nothing is noted from it.
     */
    private void noteInvalidation() {
        if (!context.hasType2Windows() || !fields.contains(WcField.IMM)
                || extended.status() != IbverbsConstants.IBV_WC_SUCCESS
                || ExtendedCompletionVerbs.ibv_wc_read_opcode(extended) != IbverbsConstants.IBV_WC_RECV) {
            return;
        }
        int flags = ExtendedCompletionVerbs.ibv_wc_read_wc_flags(extended);
        if (flags != 0) {
            context.received(flags, ExtendedCompletionVerbs.ibv_wc_read_invalidated_rkey(extended));
        }
    }

    private void requireOpenPoll() {
        if (!pollLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("no poll is open on the queue in this thread");
        }
    }

    private void requireCurrent() {
        if (!pollLock.isHeldByCurrentThread() || !hasCurrent) {
            throw new IllegalStateException("no completion is current: read within startPoll/nextPoll and endPoll");
        }
    }

    private void requireCurrent(WcField field) {
        if (!fields.contains(field)) {
            throw new IllegalStateException("the queue was made without " + field);
        }
        requireCurrent();
    }

    @Override
    public long wrId() {
        requireCurrent();
        return extended.wr_id();
    }

    @Override
    public WcStatus status() {
        requireCurrent();
        return Completions.status(extended.status());
    }

    @Override
    public WcOpcode opcode() {
        requireCurrent();
        return Completions.opcode(ExtendedCompletionVerbs.ibv_wc_read_opcode(extended));
    }

    @Override
    public int vendorError() {
        requireCurrent();
        return ExtendedCompletionVerbs.ibv_wc_read_vendor_err(extended);
    }

    @Override
    public int wcFlags() {
        requireCurrent();
        return ExtendedCompletionVerbs.ibv_wc_read_wc_flags(extended);
    }

    @Override
    public int byteLength() {
        requireCurrent(WcField.BYTE_LEN);
        return ExtendedCompletionVerbs.ibv_wc_read_byte_len(extended);
    }

    @Override
    public int immData() {
        requireCurrent(WcField.IMM);
        return NetworkOrder.toHost32(ExtendedCompletionVerbs.ibv_wc_read_imm_data(extended));
    }

    /** libibverbs reads the invalidated rkey through the immediate data's reader: they share the field. */
    @Override
    public int invalidatedRkey() {
        requireCurrent(WcField.IMM);
        return ExtendedCompletionVerbs.ibv_wc_read_invalidated_rkey(extended);
    }

    @Override
    public int qpNum() {
        requireCurrent(WcField.QP_NUM);
        return ExtendedCompletionVerbs.ibv_wc_read_qp_num(extended);
    }

    @Override
    public int srcQp() {
        requireCurrent(WcField.SRC_QP);
        return ExtendedCompletionVerbs.ibv_wc_read_src_qp(extended);
    }

    @Override
    public int slid() {
        requireCurrent(WcField.SLID);
        return ExtendedCompletionVerbs.ibv_wc_read_slid(extended);
    }

    @Override
    public int sl() {
        requireCurrent(WcField.SL);
        return ExtendedCompletionVerbs.ibv_wc_read_sl(extended);
    }

    @Override
    public int dlidPathBits() {
        requireCurrent(WcField.DLID_PATH_BITS);
        return ExtendedCompletionVerbs.ibv_wc_read_dlid_path_bits(extended);
    }

    @Override
    public long completionTimestamp() {
        requireCurrent(WcField.COMPLETION_TIMESTAMP);
        return ExtendedCompletionVerbs.ibv_wc_read_completion_ts(extended);
    }

    @Override
    public long completionTimestampWallclockNs() {
        requireCurrent(WcField.COMPLETION_TIMESTAMP_WALLCLOCK);
        return ExtendedCompletionVerbs.ibv_wc_read_completion_wallclock_ns(extended);
    }

    /**
     * Ends this thread's open poll first; fails with {@code EBUSY} while another thread has
     * one open, as the provider holds the queue's lock for it.
     */
    @Override
    protected void destroy() {
        if (pollLock.isHeldByCurrentThread()) {
            ExtendedCompletionVerbs.ibv_end_poll(extended);
            hasCurrent = false;
            pollLock.unlock();
        }
        if (!pollLock.tryLock()) {
            throw new VerbsException(Errno.EBUSY, "another thread has a poll open on the completion queue");
        }
        try {
            super.destroy();
            destroyed = true;
        } finally {
            pollLock.unlock();
        }
    }
}
