package dev.verbs4j.softroce;

import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.spi.Resource;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A completion channel: armed queues post themselves here when their event fires. */
final class SoftChannel extends Resource implements CompletionChannel {
    final SoftContext context;
    private final LinkedBlockingQueue<SoftCq> events = new LinkedBlockingQueue<>();
    private int waiters; // guarded by this

    SoftChannel(SoftContext context) {
        super("completion channel", context);
        this.context = context;
    }

    void signal(SoftCq cq) {
        events.offer(cq);
    }

    @Override
    public Optional<CompletionQueue> awaitEvent(Duration timeout) {
        synchronized (this) {
            ensureOpen();
            waiters++;
        }
        try {
            return Optional.ofNullable(events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            synchronized (this) {
                waiters--;
            }
        }
    }

    /** Fails with {@code EBUSY} while a thread waits here, as the ibverbs provider must (its descriptor would close under the thread). */
    @Override
    protected void destroy() {
        if (waiters > 0) {
            throw new VerbsException(Errno.EBUSY, "a thread is waiting on the completion channel");
        }
        events.clear();
    }
}
