package dev.verbs4j.tools.perf;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.FlushType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

/**
 * A connected requester and the responder's region it works on. The responder is in this
 * process ({@link Loopback}) or in another one ({@link PerfClient}, served by {@link PerfServer}).
 */
abstract class PerfPair implements AutoCloseable {
    /** The requester. */
    final End a;
    /** The responder's region: where the requests go. */
    final long remoteAddress;
    final int remoteRkey;
    final String description;
    final FlushType flushType;

    PerfPair(End a, long remoteAddress, int remoteRkey, String description, FlushType flushType) {
        this.a = a;
        this.remoteAddress = remoteAddress;
        this.remoteRkey = remoteRkey;
        this.description = description;
        this.flushType = flushType;
    }

    /** The responder when it is in this process, which then does its share in the requester's loops; else null. */
    abstract End responder();

    /**
     * {@code count} connected requester queue pairs (perftest's {@code -q}): the first is
     * {@code a.qp}; the others share its protection domain and completion queue, so one poll
     * loop reaps them all. Asked once per pair (or again with the same count).
     */
    abstract QueuePair[] requesters(int count);

    /** The soft devices' counters that explain a slow run (retransmissions, timeouts, drops); empty for other providers. */
    abstract String softCounters();

    /** Before {@code count} operations of {@code test} at {@code size}: a responder elsewhere gets ready for them. */
    abstract void begin(String test, int size, int count);

    /** After those operations: a responder elsewhere has done its share once this returns. */
    abstract void end();

    /** Polls until one completion arrives; fails on an error status. */
    static void awaitOne(CompletionQueue cq, WorkCompletion[] one) {
        long spins = 0;
        while (cq.poll(one, 1) == 0) {
            if (++spins % 100_000_000L == 0 && spins > 1_000_000_000L) {
                throw new IllegalStateException("no completion");
            }
        }
        if (one[0].status() != WcStatus.SUCCESS) {
            throw new IllegalStateException("operation failed: " + one[0]);
        }
    }

    @Override
    public abstract void close();
}
