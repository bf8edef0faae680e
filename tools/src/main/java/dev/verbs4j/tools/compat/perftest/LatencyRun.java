package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The data path of perftest's latency tests (perftest_resources.c): {@code ib_write_lat}'s
 * ping-pong of RDMA WRITEs whose last byte counts the iterations ({@code run_iter_lat_write}),
 * {@code ib_read_lat}'s and {@code ib_atomic_lat}'s one request at a time from the client
 * ({@code run_iter_lat}), and {@code ib_send_lat}'s ping-pong of messages
 * ({@code run_iter_lat_send}). Each returns the time between successive posts, in
 * nanoseconds; the ping-pongs halve it, as perftest reports them.
 */
final class LatencyRun {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private LatencyRun() {
    }

    /**
     * {@code ib_write_lat}, either side: the server writes first. Each side writes {@code size}
     * bytes whose last is the count of its writes so far into the peer's area, and waits for the
     * peer's count to appear in the last byte of its own area before writing again.
     */
    static long[] write(PerftestSide side, KeyMessage peer, int size, int iterations, boolean server) {
        QueuePair qp = side.qps[0];
        long postByte = side.localArea(0) + size - 1;
        long pollByte = side.remoteArea(0) + size - 1;
        SendWorkRequest wr = new SendWorkRequest().wrId(0).signaled(true)
                .buffer(side.region, side.localArea(0), size).rdmaWrite(peer.vaddr(), peer.rkey());
        Completions cq = new Completions(side.sendCq, 4, "ib_write_lat completions");
        Completions.Backoff backoff = new Completions.Backoff();
        long[] posts = new long[iterations];
        int sent = 0;
        int completed = 0;
        int received = 0;
        while (sent < iterations || completed < iterations || received < iterations) {
            if (received < iterations && !(server && sent < 1)) {
                received++;
                backoff.reset();
                while ((byte) BYTE.getVolatile(side.buffer, pollByte) != (byte) received) {
                    // Polling the queue also drives the soft device's engine in this thread.
                    int k = cq.pollOnce();
                    completed += k;
                    if (k == 0) {
                        backoff.idle("the peer's write " + received);
                    }
                }
            }
            if (sent < iterations) {
                posts[sent] = System.nanoTime();
                sent++;
                BYTE.setVolatile(side.buffer, postByte, (byte) sent);
                qp.postSend(wr);
            }
            backoff.reset();
            while (completed < sent) {
                int k = cq.pollOnce();
                completed += k;
                if (k == 0) {
                    backoff.idle("the completion of write " + sent);
                }
            }
        }
        return gaps(posts, true);
    }

    /** {@code ib_read_lat} and {@code ib_atomic_lat}'s client: one request, its completion, the next. */
    static long[] oneSided(PerftestSide side, KeyMessage peer, int size, int iterations) {
        QueuePair qp = side.qps[0];
        SendWorkRequest wr = new SendWorkRequest().wrId(0).signaled(true);
        long local = side.localArea(0);
        switch (side.options.test.verb) {
            case READ -> wr.buffer(side.region, local, size).rdmaRead(peer.vaddr(), peer.rkey());
            case ATOMIC -> {
                if (side.options.compareAndSwap) {
                    wr.buffer(side.region, local, 8).compareAndSwap(peer.vaddr(), peer.rkey(), 0, 0);
                } else {
                    wr.buffer(side.region, local, 8).fetchAndAdd(peer.vaddr(), peer.rkey(), 1);
                }
            }
            default -> throw new IllegalArgumentException(side.options.test + " is not one-sided");
        }
        Completions cq = new Completions(side.sendCq, 4, side.options.test.program() + " completions");
        long[] posts = new long[iterations + 1];
        for (int i = 0; i < iterations; i++) {
            posts[i] = System.nanoTime();
            qp.postSend(wr);
            cq.await();
        }
        posts[iterations] = System.nanoTime();
        return gaps(posts, false);
    }

    /** Posts {@code ib_send_lat}'s receives for one size: up to the rx depth, into the remote area. */
    static int postReceives(PerftestSide side, int size, int iterations) {
        ReceiveWorkRequest wr = new ReceiveWorkRequest().wrId(0).buffer(side.region, side.remoteArea(0), size);
        int depth = Math.min(side.options.rxDepth(), iterations);
        for (int i = 0; i < depth; i++) {
            side.qps[0].postRecv(wr);
        }
        return depth;
    }

    /**
     * {@code ib_send_lat}, either side: the client sends first; each side waits for a message,
     * posts a receive again while more are to come, and answers.
     */
    static long[] send(PerftestSide side, int size, int iterations, int posted, boolean server) {
        QueuePair qp = side.qps[0];
        SendWorkRequest wr = new SendWorkRequest().wrId(0).signaled(true)
                .buffer(side.region, side.localArea(0), size).send();
        ReceiveWorkRequest again = new ReceiveWorkRequest().wrId(0).buffer(side.region, side.remoteArea(0), size);
        Completions sends = new Completions(side.sendCq, 1, "ib_send_lat send completions");
        Completions receives = new Completions(side.recvCq, 1, "ib_send_lat messages");
        long[] posts = new long[iterations];
        int sent = 0;
        int received = 0;
        while (sent < iterations || received < iterations) {
            if (received < iterations && !(!server && sent < 1)) {
                receives.await();
                if (receives.at(0).byteLength() != size) {
                    throw new IllegalStateException("a message of " + receives.at(0).byteLength() + " bytes came; the size is "
                            + size + " (give both sides the same -s)");
                }
                received++;
                if (posted < iterations) {
                    qp.postRecv(again);
                    posted++;
                }
            }
            if (sent < iterations) {
                posts[sent++] = System.nanoTime();
                qp.postSend(wr);
                sends.await();
            }
        }
        return gaps(posts, true);
    }

    /** The times between successive posts, halved for a ping-pong (a round trip is two latencies). */
    private static long[] gaps(long[] posts, boolean halve) {
        long[] gaps = new long[Math.max(0, posts.length - 1)];
        for (int i = 0; i < gaps.length; i++) {
            long gap = posts[i + 1] - posts[i];
            gaps[i] = halve ? gap / 2 : gap;
        }
        return gaps;
    }
}
