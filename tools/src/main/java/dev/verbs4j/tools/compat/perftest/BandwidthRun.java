package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;

/**
 * The data path of perftest's bandwidth tests ({@code run_iter_bw}, {@code run_iter_bw_server}):
 * the client keeps up to the tx depth of requests in flight on every queue pair until each
 * has done its iterations; the server of {@code ib_send_bw} keeps receives posted until it has
 * taken as many messages. Every request is signalled; each targets the start of the peer's
 * area for its queue pair (perftest walks through the cycle buffer instead, which the peer
 * cannot tell apart).
 */
final class BandwidthRun {
    /** perftest's {@code ATOMIC_ADD_VALUE} and {@code ATOMIC_SWAP_VALUE}. */
    private static final long ADD = 1;
    private static final long SWAP = 0;

    private BandwidthRun() {
    }

    /** The client's requests of {@code size} bytes, {@code iterations} per queue pair; returns its report. */
    static BwReport client(PerftestSide side, KeyMessage[] theirs, int size, int iterations) {
        PerftestOptions o = side.options;
        int n = side.qps.length;
        SendWorkRequest[] wrs = new SendWorkRequest[n];
        for (int q = 0; q < n; q++) {
            wrs[q] = request(side, theirs[q], q, size);
        }
        int depth = o.txDepth();
        int[] posted = new int[n];
        int[] done = new int[n];
        long total = (long) n * iterations;
        long completed = 0;
        Completions cq = new Completions(side.sendCq, 64, o.test.program() + " completions");
        Completions.Backoff backoff = new Completions.Backoff();
        long start = System.nanoTime();
        while (completed < total) {
            for (int q = 0; q < n; q++) {
                QueuePair qp = side.qps[q];
                while (posted[q] < iterations && posted[q] - done[q] < depth) {
                    qp.postSend(wrs[q]);
                    posted[q]++;
                }
            }
            int k = cq.pollOnce();
            if (k == 0) {
                backoff.idle(o.test.program() + " completions");
                continue;
            }
            backoff.reset();
            for (int i = 0; i < k; i++) {
                done[(int) cq.at(i).wrId()]++;
            }
            completed += k;
        }
        return report(size, total, System.nanoTime() - start, o.reportGbits);
    }

    private static SendWorkRequest request(PerftestSide side, KeyMessage peer, int q, int size) {
        SendWorkRequest wr = new SendWorkRequest().wrId(q).signaled(true);
        long local = side.localArea(q);
        return switch (side.options.test.verb) {
            case WRITE -> wr.buffer(side.region, local, size).rdmaWrite(peer.vaddr(), peer.rkey());
            case READ -> wr.buffer(side.region, local, size).rdmaRead(peer.vaddr(), peer.rkey());
            case SEND -> wr.buffer(side.region, local, size).send();
            case ATOMIC -> side.options.compareAndSwap
                    ? wr.buffer(side.region, local, 8).compareAndSwap(peer.vaddr(), peer.rkey(), 0, SWAP)
                    : wr.buffer(side.region, local, 8).fetchAndAdd(peer.vaddr(), peer.rkey(), ADD);
        };
    }

    /**
     * Posts the receives of one size of {@code ib_send_bw}'s server ({@code ctx_set_recv_wqes}):
     * up to the rx depth on each queue pair, into its remote area.
     *
     * @return how many were posted on each queue pair
     */
    static int[] postReceives(PerftestSide side, int size, int iterations) {
        int n = side.qps.length;
        int[] posted = new int[n];
        ReceiveWorkRequest wr = new ReceiveWorkRequest();
        for (int q = 0; q < n; q++) {
            wr.wrId(q).buffer(side.region, side.remoteArea(q), size);
            for (; posted[q] < Math.min(side.options.rxDepth(), iterations); posted[q]++) {
                side.qps[q].postRecv(wr);
            }
        }
        return posted;
    }

    /**
     * {@code ib_send_bw}'s server: takes {@code iterations} messages on every queue pair,
     * posting a receive again for each one taken while more are to come. Timed from the
     * first message to the last, as perftest's server does.
     */
    static BwReport server(PerftestSide side, int[] posted, int size, int iterations) {
        int n = side.qps.length;
        ReceiveWorkRequest wr = new ReceiveWorkRequest();
        long total = (long) n * iterations;
        long received = 0;
        long first = 0;
        Completions cq = new Completions(side.recvCq, 64, "ib_send_bw messages");
        while (received < total) {
            int k = cq.await();
            if (received == 0) {
                first = System.nanoTime();
            }
            for (int i = 0; i < k; i++) {
                int q = (int) cq.at(i).wrId();
                if (cq.at(i).byteLength() != size) {
                    throw new IllegalStateException("a message of " + cq.at(i).byteLength() + " bytes came; the size is " + size
                            + " (give both sides the same -s)");
                }
                if (posted[q] < iterations) {
                    side.qps[q].postRecv(wr.wrId(q).buffer(side.region, side.remoteArea(q), size));
                    posted[q]++;
                }
            }
            received += k;
        }
        return report(size, total, System.nanoTime() - first, side.options.reportGbits);
    }

    /** perftest's figures: bandwidth in MB/s (2^20 bytes) or Gb/s, and the message rate in Mpps. */
    static BwReport report(int size, long messages, long elapsedNs, boolean gbits) {
        double seconds = Math.max(elapsedNs, 1) / 1e9;
        double bytesPerSecond = (double) size * messages / seconds;
        double bw = bytesPerSecond / (gbits ? 125e6 : 0x100000);
        return new BwReport(size, messages, bw, bw, messages / seconds / 1e6);
    }
}
