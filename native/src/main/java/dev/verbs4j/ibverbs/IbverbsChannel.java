package dev.verbs4j.ibverbs;

import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.ibverbs.binding.CompletionVerbs;
import dev.verbs4j.ibverbs.binding.ibv_comp_channel;
import dev.verbs4j.ibverbs.binding.ibv_cq;
import dev.verbs4j.spi.Resource;
import org.bytedeco.javacpp.Pointer;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A completion event channel ({@code struct ibv_comp_channel}) with a non-blocking
 * descriptor: {@link #awaitEvent} polls it with the time left, then takes the event
 * ({@code ibv_get_cq_event}) and acknowledges it at once ({@code ibv_ack_cq_events}).
 */
final class IbverbsChannel extends Resource implements CompletionChannel {
    private static final int EAGAIN = 11;

    final IbverbsContext context;
    final ibv_comp_channel handle;
    /** The queues using this channel, by the address libibverbs names them with in events. */
    private final Map<Long, IbverbsCq> queues = new ConcurrentHashMap<>();
    private final ibv_cq eventCq = new ibv_cq((Pointer) null); // guarded by this; filled by ibv_get_cq_event
    private final Pointer eventContext = new Pointer((Pointer) null); // guarded by this
    private final DescriptorWaiters waiters = new DescriptorWaiters(this);

    /** Wraps a channel whose descriptor the caller made non-blocking. */
    IbverbsChannel(IbverbsContext context, ibv_comp_channel handle) {
        super("completion channel", context);
        this.context = context;
        this.handle = handle;
    }

    void attach(IbverbsCq cq) {
        queues.put(cq.handle.address(), cq);
    }

    void detach(IbverbsCq cq) {
        queues.remove(cq.handle.address(), cq); // not a queue made at the same address since
    }

    @Override
    public Optional<CompletionQueue> awaitEvent(Duration timeout) {
        DescriptorWait wait = DescriptorWait.of(timeout);
        waiters.enter();
        try {
            int fd = handle.fd();
            while (wait.awaitReadable(fd)) {
                IbverbsCq cq = take();
                if (cq != null) {
                    return cq.asEvent();
                }
            }
            return Optional.empty();
        } finally {
            waiters.exit();
        }
    }

    /** One event, acknowledged; null when another thread took it first. */
    private synchronized IbverbsCq take() {
        if (CompletionVerbs.ibv_get_cq_event(handle, eventCq, eventContext) != 0) {
            int errno = NativeErrors.capturedErrno();
            if (errno == EAGAIN) {
                return null;
            }
            throw NativeErrors.failure(errno, "ibv_get_cq_event");
        }
        CompletionVerbs.ibv_ack_cq_events(eventCq, 1);
        return queues.get(eventCq.address());
    }

    /** The threads in {@link #awaitEvent} now. */
    int waiters() {
        return waiters.count();
    }

    /** Fails with {@code EBUSY} while a thread waits on the descriptor, which would close under it. */
    @Override
    protected void destroy() {
        waiters.refuseCloseWhileWaiting(System.nanoTime(), "a thread is waiting on the completion channel");
        NativeErrors.check(CompletionVerbs.ibv_destroy_comp_channel(handle), "ibv_destroy_comp_channel");
    }
}
