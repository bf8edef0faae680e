package dev.verbs4j.ibverbs;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.Errno;
import dev.verbs4j.ibverbs.binding.DeviceVerbs;
import dev.verbs4j.ibverbs.binding.ibv_async_event;

import java.time.Duration;
import java.util.Optional;

/**
 * The async events of one context: {@code ibv_get_async_event} on its non-blocking
 * {@code async_fd}, bounded by {@code poll(2)}, each event acknowledged at once
 * ({@code ibv_ack_async_event}) so that destroying its object never waits for the caller.
 */
final class AsyncEvents {
    private static final int EAGAIN = 11;

    private final IbverbsContext context;
    private final ibv_async_event event = new ibv_async_event(); // guarded by this
    private final DescriptorWaiters waiters;

    AsyncEvents(IbverbsContext context) {
        this.context = context;
        this.waiters = new DescriptorWaiters(context);
    }

    Optional<AsyncEvent> next(Duration timeout) {
        DescriptorWait wait = DescriptorWait.of(timeout);
        waiters.enter();
        try {
            int fd = context.handle.async_fd();
            while (wait.awaitReadable(fd)) {
                AsyncEvent taken = take();
                if (taken != null) {
                    return Optional.of(taken);
                }
            }
            return Optional.empty();
        } finally {
            waiters.exit();
        }
    }

    /** One event, or null when another thread took it or its type has no name in the API. */
    private synchronized AsyncEvent take() {
        if (DeviceVerbs.ibv_get_async_event(context.handle, event) != 0) {
            int errno = NativeErrors.capturedErrno();
            if (errno == EAGAIN) {
                return null;
            }
            throw NativeErrors.failure(errno, "ibv_get_async_event");
        }
        try {
            AsyncEventType type = IbverbsContext.eventType(event.event_type());
            return type == null ? null : new AsyncEvent(type, element(type));
        } finally {
            DeviceVerbs.ibv_ack_async_event(event);
        }
    }

    /** What the event is about: a QP number, a CQ or SRQ handle, a port number, or 0 for the device. */
    private long element(AsyncEventType type) {
        return switch (type) {
            case QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR,
                 QP_LAST_WQE_REACHED -> Integer.toUnsignedLong(event.element_qp().qp_num());
            case CQ_ERR -> Integer.toUnsignedLong(event.element_cq().handle());
            case SRQ_ERR, SRQ_LIMIT_REACHED -> Integer.toUnsignedLong(event.element_srq().handle());
            case PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE ->
                    event.element_port_num();
            case DEVICE_FATAL, WQ_FATAL -> 0;
        };
    }

    /** Called under the context's monitor. */
    void checkNoWaiter() {
        waiters.refuseCloseWhileWaiting(System.nanoTime(), "a thread is waiting for async events of " + context);
    }

    void free() {
        event.close();
    }
}
