package dev.verbs4j.softroce;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.PortSpace;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The soft provider's event channel: a queue the device engines put events in. */
final class SoftCmEventChannel implements CmEventChannel {
    private static final long CALLER_PROGRESS_SLICE_NS = 1_000_000;

    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    final Set<SoftCmId> ids = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    @Override
    public CmId createId(PortSpace portSpace) {
        requireOpen();
        if (portSpace != PortSpace.TCP && portSpace != PortSpace.IB) {
            throw new VerbsException(Errno.EPROTONOSUPPORT, "the soft connection manager connects RC and UC (TCP or IB port space), not "
                    + portSpace);
        }
        SoftCmId id = new SoftCmId(this, portSpace);
        ids.add(id);
        return id;
    }

    void post(CmEvent event) {
        events.offer(event);
    }

    @Override
    public Optional<CmEvent> nextEvent(Duration timeout) {
        requireOpen();
        try {
            if (!CallerProgress.enabled()) {
                return Optional.ofNullable(events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS));
            }
            // No engine thread: waiting for an event means doing the engines' work.
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                CallerProgress.run();
                CmEvent e = events.poll(Math.min(CALLER_PROGRESS_SLICE_NS, Math.max(0, deadline - System.nanoTime())),
                        TimeUnit.NANOSECONDS);
                if (e != null || System.nanoTime() - deadline >= 0) {
                    return Optional.ofNullable(e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VerbsException(Errno.EINTR, "interrupted while waiting for a connection-manager event");
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new VerbsException(Errno.EBADF, "the event channel is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!ids.isEmpty()) {
            throw new VerbsException(Errno.EBUSY, ids.size() + " id(s) of this channel are still open");
        }
        closed = true;
        events.clear();
    }
}
