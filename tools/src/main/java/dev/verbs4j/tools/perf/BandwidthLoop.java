package dev.verbs4j.tools.perf;

import dev.verbs4j.FlushLevel;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;

/**
 * The loop of a bandwidth measurement: keeps the pipeline full and reaps completions until a
 * run's operations are done. A run is a sequence of {@link #step} calls rather than one long
 * loop, so that the JIT compiles the step as an ordinary method, which the next run (the
 * measurement after its warm-up) enters compiled. A loop that lived in one call would be
 * compiled on the stack only, and its compiled code dropped when the warm-up's loop exits,
 * leaving the measurement to start in profiling code.
 */
final class BandwidthLoop {
    private final String test;
    private final PerfPair lb;
    private final VerbsTests.Posting posting;
    private final SendWorkRequest[] wrs;
    private final ReceiveWorkRequest rr = new ReceiveWorkRequest();
    private final WorkCompletion[] wcs;
    private final int size;
    private final int depth;
    /** The responder in this process whose receives a send_bw replaces, or null. */
    private final End receiver;

    private int iterations;
    private int posted;
    private int completed;
    private int window;
    private long windowStart;
    private int windowDone;
    private double peak;
    private long idlePolls;

    BandwidthLoop(String test, PerfPair lb, VerbsTests.Posting posting, int size, int depth) {
        this.test = test;
        this.lb = lb;
        this.posting = posting;
        this.size = size;
        this.depth = depth;
        this.wrs = new SendWorkRequest[posting.list];
        for (int i = 0; i < wrs.length; i++) {
            wrs[i] = new SendWorkRequest();
        }
        this.wcs = new WorkCompletion[depth];
        for (int i = 0; i < depth; i++) {
            wcs[i] = new WorkCompletion();
        }
        this.receiver = test.equals("send_bw") ? lb.responder() : null;
    }

    /**
     * Posts a receive for each of the depth's SENDs, once per pair: each receive taken is
     * replaced, so the next run (--repeat, -a) finds them all posted, each long enough for any
     * message of the pair's buffer.
     */
    void postReceives() {
        if (receiver != null && !receiver.receivesPosted) {
            for (int i = 0; i < depth; i++) {
                receiver.qp.postRecv(rr.wrId(i).buffer(receiver.mr, 0, receiver.receiveLength()));
            }
            receiver.receivesPosted = true;
        }
    }

    /** Runs {@code count} operations; returns the best Gb/s over windows of 1/10th of the run. */
    double run(int count) {
        java.util.Arrays.fill(posting.unsignaled, 0);
        iterations = count;
        posted = 0;
        completed = 0;
        window = Math.max(1, count / 10);
        windowStart = System.nanoTime();
        windowDone = 0;
        peak = 0;
        idlePolls = 0;
        while (completed < iterations) {
            step();
        }
        return peak;
    }

    /** Posts what the pipeline has room for, then reaps the completions there are. */
    private void step() {
        while (posted < iterations && depth - (posted - completed) >= Math.min(wrs.length, iterations - posted)) {
            postList(Math.min(wrs.length, iterations - posted));
        }
        int n = lb.a.cq.poll(wcs, wcs.length);
        if (n == 0 && ++idlePolls % 64 == 0) {
            // Engine threads may need this core (2-core machines): give it up now and then.
            Thread.yield();
        }
        int done = 0;
        for (int i = 0; i < n; i++) {
            if (!wcs[i].isSuccess()) {
                throw new IllegalStateException("operation failed: " + wcs[i]);
            }
            done += (int) wcs[i].wrId();
        }
        completed += done;
        Progress.update(completed);
        if (receiver != null) {
            int r = receiver.cq.poll(wcs, wcs.length);
            for (int i = 0; i < r; i++) {
                receiver.qp.postRecv(rr.wrId(i).buffer(receiver.mr, 0, receiver.receiveLength()));
            }
        }
        windowDone += done;
        if (windowDone >= window) {
            long now = System.nanoTime();
            peak = Math.max(peak, windowDone * (double) size * 8 / ((now - windowStart) / 1e9) / 1e9);
            windowStart = now;
            windowDone = 0;
        }
    }

    /** Posts the next {@code count} requests as one list to their queue pair. */
    private void postList(int count) {
        int pair = 0;
        for (int k = 0; k < count; k++) {
            SendWorkRequest wr = wrs[k];
            pair = posting.prepare(wr, posted + k, iterations);
            wr.buffer(lb.a.mr, 0, size);
            switch (test) {
                case "write_bw" -> wr.rdmaWrite(lb.remoteAddress, lb.remoteRkey);
                case "read_bw" -> wr.rdmaRead(lb.remoteAddress, lb.remoteRkey);
                case "send_bw" -> wr.send();
                case "atomic_bw" -> wr.buffer(lb.a.mr, 0, 8).fetchAndAdd(lb.remoteAddress, lb.remoteRkey, 1);
                case "atomic_write_bw" -> wr.atomicWrite(lb.remoteAddress, lb.remoteRkey, posted + k);
                case "flush_bw" -> {
                    wr.sges().clear();
                    wr.flush(lb.remoteAddress, lb.remoteRkey, size, lb.flushType, FlushLevel.RANGE);
                }
                default -> throw new IllegalArgumentException("not a bandwidth test: " + test);
            }
        }
        QueuePair qp = posting.requesters[pair];
        if (count == 1) {
            qp.postSend(wrs[0]);
        } else {
            qp.postSend(wrs, count);
        }
        posted += count;
    }
}
