package dev.verbs4j.softroce;

import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.CompletionRing;
import dev.verbs4j.spi.Resource;

/** A completion queue over a {@link CompletionRing}. */
final class SoftCq extends Resource implements CompletionQueue {
    final SoftContext context;
    final CompletionRing ring;
    private final SoftChannel channel;

    SoftCq(SoftContext context, int entries, SoftChannel channel) {
        super("completion queue", context, channel);
        this.context = context;
        this.channel = channel;
        this.ring = new CompletionRing(entries, channel == null ? null : () -> channel.signal(this));
    }

    @Override
    public int capacity() {
        return ring.capacity();
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    @Override
    public int poll(WorkCompletion[] out, int max) {
        ensureOpen();
        int n = ring.poll(out, max);
        if (n == 0) {
            if (!context.device.hasEngineThread()) {
                CallerProgress.run();
            } else if (!ring.isArmed()) {
                // An armed queue means the application is about to wait for its event rather
                // than poll on: the engine thread keeps the work then.
                context.engine.help(System.nanoTime());
            }
            n = ring.poll(out, max);
        }
        return n;
    }

    @Override
    public void requestNotify(boolean solicitedOnly) {
        ensureOpen();
        if (channel == null) {
            throw new VerbsException(Errno.EINVAL, "completion queue has no channel to notify");
        }
        ring.arm(solicitedOnly);
        // The application is about to wait for an event rather than poll: the engine thread takes over.
        context.engine.stopHelping();
    }

    @Override
    protected void destroy() {
    }
}
