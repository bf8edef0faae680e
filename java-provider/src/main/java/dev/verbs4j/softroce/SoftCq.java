package dev.verbs4j.softroce;

import dev.verbs4j.CompletionChannel;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.CompletionRing;
import dev.verbs4j.spi.Resource;

import java.util.function.LongSupplier;

/** A completion queue over a {@link CompletionRing}. */
class SoftCq extends Resource implements CompletionQueue {
    final SoftContext context;
    final CompletionRing ring;
    private final SoftChannel channel;

    SoftCq(SoftContext context, int entries, SoftChannel channel) {
        this(context, entries, channel, null);
    }

    /** @param clock stamps each completion, or null for none */
    SoftCq(SoftContext context, int entries, SoftChannel channel, LongSupplier clock) {
        super("completion queue", context, channel);
        this.context = context;
        this.channel = channel;
        this.ring = new CompletionRing(entries, channel == null ? null : () -> channel.signal(this), clock);
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
        return pollRing(out, max);
    }

    @Override
    public void resize(int minEntries) {
        ensureOpen();
        int max = context.device.config().limits().maxCqe();
        if (minEntries < 1 || minEntries > max) {
            throw new VerbsException(Errno.EINVAL, "CQ size " + minEntries + " outside 1.." + max);
        }
        ring.resize(minEntries);
    }

    /** Takes completions from the ring, letting the engine run first when it is empty. */
    final int pollRing(WorkCompletion[] out, int max) {
        int n = ring.poll(out, max);
        if (n == 0) {
            help();
            n = ring.poll(out, max);
        } else {
            stillPolling();
        }
        return n;
    }

    /**
     * A poll that found completions waiting still polls: it helps too when the last help is
     * {@link #HELP_AGAIN_NS} old, so the engine thread stays stepped back and the engine
     * still steps on this thread at that pace. Otherwise a thread that posts and reaps as fast
     * as its completions come (a sender keeping its queue full) would find one waiting at
     * nearly every poll, the engine thread would take over after its window, and the two would
     * share the cores with the peer's threads instead of one doing the work; and a refresh
     * without the step would leave the device's other queues to the engine thread's ticks.
     */
    final void stillPolling() {
        if (context.device.hasEngineThread() && !ring.isArmed()) {
            long now = System.nanoTime();
            if (now - context.engine.helpedAtNs() >= HELP_AGAIN_NS) {
                context.engine.help(now);
            }
        }
    }

    /** How old the last help may be before a poll that found completions helps again: a quarter of the engine thread's window. */
    static final long HELP_AGAIN_NS = dev.verbs4j.softroce.engine.DeviceEngine.HELP_WINDOW_NS / 4;

    /** Lets the engine make progress on this thread when no engine thread does, or helps the one there is. */
    final void help() {
        if (context.device.manual()) {
            // Its driver steps it, on its own clock; a poll neither steps it nor the others.
            return;
        }
        if (!context.device.hasEngineThread()) {
            CallerProgress.run(context.engine);
        } else if (!ring.isArmed()) {
            // An armed queue means the application is about to wait for its event rather
            // than poll on: the engine thread keeps the work then.
            context.engine.help(System.nanoTime());
        }
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
