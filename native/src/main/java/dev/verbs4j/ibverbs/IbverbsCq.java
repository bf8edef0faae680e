package dev.verbs4j.ibverbs;

import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.ibverbs.binding.CompletionVerbs;
import dev.verbs4j.ibverbs.binding.ibv_cq;
import dev.verbs4j.ibverbs.binding.ibv_wc;
import dev.verbs4j.spi.Resource;

import java.util.Optional;

/**
 * A completion queue ({@code struct ibv_cq}). It polls with {@code ibv_poll_cq} into an
 * {@code ibv_wc} array allocated once, then copies each entry into the caller's
 * {@link WorkCompletion}s: nothing is allocated per poll.
 */
class IbverbsCq extends Resource implements CompletionQueue {
    /** Completions taken from the provider per {@code ibv_poll_cq} call. */
    static final int POLL_BATCH = 32;

    final IbverbsContext context;
    final ibv_cq handle;
    private final IbverbsChannel channel;
    private volatile int capacity;
    private final ibv_wc completions = new ibv_wc(POLL_BATCH); // guarded by this
    private final Optional<CompletionQueue> asEvent = Optional.of(this);

    IbverbsCq(IbverbsContext context, IbverbsChannel channel, ibv_cq handle) {
        super("completion queue", context, channel);
        this.context = context;
        this.channel = channel;
        this.handle = handle;
        this.capacity = handle.cqe();
        if (channel != null) {
            channel.attach(this);
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    /** This queue as the answer of {@link IbverbsChannel#awaitEvent}, made once. */
    Optional<CompletionQueue> asEvent() {
        return asEvent;
    }

    @Override
    public synchronized int poll(WorkCompletion[] out, int max) {
        ensureOpen();
        int wanted = Math.min(max, out.length);
        int filled = 0;
        while (filled < wanted) {
            int batch = Math.min(wanted - filled, POLL_BATCH);
            int polled = CompletionVerbs.ibv_poll_cq(handle, batch, completions);
            if (polled < 0) {
                // ibv_poll_cq(3): a negative result, errno undefined; providers return -errno or -1.
                throw NativeErrors.failure(polled < -1 ? -polled : NativeErrors.EIO, "ibv_poll_cq");
            }
            for (int i = 0; i < polled; i++) {
                WorkCompletion wc = out[filled + i];
                Completions.fill(completions.position(i), wc);
                if (wc.flags() != 0 && wc.status() == WcStatus.SUCCESS && wc.opcode() == WcOpcode.RECV) {
                    context.received(wc.flags(), wc.invalidatedRkey());
                }
            }
            completions.position(0);
            filled += polled;
            if (polled < batch) {
                break;
            }
        }
        if (filled == 0) {
            context.sweepFreedMemory();
        }
        return filled;
    }

    @Override
    public synchronized void resize(int minEntries) {
        ensureOpen();
        if (minEntries < 1) {
            throw new VerbsException(Errno.EINVAL, "CQ size " + minEntries);
        }
        NativeErrors.check(CompletionVerbs.ibv_resize_cq(handle, minEntries), "ibv_resize_cq(" + minEntries + ")");
        capacity = handle.cqe();
    }

    @Override
    public synchronized void requestNotify(boolean solicitedOnly) {
        ensureOpen();
        if (channel == null) {
            throw new VerbsException(Errno.EINVAL, "completion queue has no channel to notify");
        }
        NativeErrors.check(CompletionVerbs.ibv_req_notify_cq(handle, solicitedOnly ? 1 : 0), "ibv_req_notify_cq");
    }

    @Override
    protected void destroy() {
        NativeErrors.check(CompletionVerbs.ibv_destroy_cq(handle), "ibv_destroy_cq");
        if (channel != null) {
            channel.detach(this);
        }
        completions.close();
    }
}
