package dev.verbs4j.tools.perf;

import dev.verbs4j.FlushLevel;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;

import java.lang.foreign.ValueLayout;

/**
 * The perftest-style measurements over a {@link Loopback}: bandwidth keeps {@code depth}
 * requests in flight; latency runs one operation at a time (ping-pong for WRITE and SEND,
 * as ib_write_lat and ib_send_lat do; request-response for the others).
 */
final class VerbsTests {
    private VerbsTests() {
    }

    static Result bandwidth(String test, Loopback lb, int size, int iterations, int depth) {
        SendWorkRequest wr = new SendWorkRequest();
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] wcs = new WorkCompletion[depth];
        for (int i = 0; i < depth; i++) {
            wcs[i] = new WorkCompletion();
        }
        boolean send = test.equals("send_bw");
        if (send) {
            for (int i = 0; i < depth; i++) {
                lb.b.qp.postRecv(rr.wrId(i).buffer(lb.b.mr, 0, size));
            }
        }
        run(test, lb, wr, rr, wcs, size, Math.min(iterations, 1000), depth, send);
        long allocBefore = Allocation.allocatedBytes();
        long start = System.nanoTime();
        double peak = run(test, lb, wr, rr, wcs, size, iterations, depth, send);
        double seconds = (System.nanoTime() - start) / 1e9;
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
        return Result.bandwidth(test, lb.description, size, iterations, seconds, peak, alloc);
    }

    /** Runs {@code iterations} operations; returns the best Gb/s over windows of 1/10th of the run. */
    private static double run(String test, Loopback lb, SendWorkRequest wr, ReceiveWorkRequest rr, WorkCompletion[] wcs,
                              int size, int iterations, int depth, boolean send) {
        int posted = 0;
        int completed = 0;
        int window = Math.max(1, iterations / 10);
        long windowStart = System.nanoTime();
        int windowDone = 0;
        double peak = 0;
        long idlePolls = 0;
        while (completed < iterations) {
            while (posted < iterations && posted - completed < depth) {
                wr.wrId(posted).signaled(true).buffer(lb.a.mr, 0, size);
                switch (test) {
                    case "write_bw" -> wr.rdmaWrite(lb.b.mr.address(), lb.b.mr.rkey());
                    case "read_bw" -> wr.rdmaRead(lb.b.mr.address(), lb.b.mr.rkey());
                    case "send_bw" -> wr.send();
                    case "atomic_bw" -> wr.buffer(lb.a.mr, 0, 8).fetchAndAdd(lb.b.mr.address(), lb.b.mr.rkey(), 1);
                    case "atomic_write_bw" -> wr.atomicWrite(lb.b.mr.address(), lb.b.mr.rkey(), posted);
                    default -> throw new IllegalArgumentException("not a bandwidth test: " + test);
                }
                lb.a.qp.postSend(wr);
                posted++;
            }
            int n = lb.a.cq.poll(wcs, wcs.length);
            if (n == 0 && ++idlePolls % 64 == 0) {
                // Engine threads may need this core (2-core machines): give it up now and then.
                Thread.yield();
            }
            for (int i = 0; i < n; i++) {
                if (!wcs[i].isSuccess()) {
                    throw new IllegalStateException("operation failed: " + wcs[i]);
                }
            }
            completed += n;
            if (send) {
                int r = lb.b.cq.poll(wcs, wcs.length);
                for (int i = 0; i < r; i++) {
                    lb.b.qp.postRecv(rr.wrId(i).buffer(lb.b.mr, 0, size));
                }
            }
            windowDone += n;
            if (windowDone >= window) {
                long now = System.nanoTime();
                peak = Math.max(peak, windowDone * (double) size * 8 / ((now - windowStart) / 1e9) / 1e9);
                windowStart = now;
                windowDone = 0;
            }
        }
        return peak;
    }

    static Result latency(String test, Loopback lb, int size, int iterations) {
        long[] ns = new long[iterations];
        measureLatency(test, lb, size, new long[Math.min(iterations, 1000)]);
        long allocBefore = Allocation.allocatedBytes();
        measureLatency(test, lb, size, ns);
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
        return Result.latency(test, lb.description, size, ns, alloc);
    }

    private static void measureLatency(String test, Loopback lb, int size, long[] ns) {
        SendWorkRequest wr = new SendWorkRequest();
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] one = {new WorkCompletion()};
        long last = Math.max(0, size - 1);
        for (int i = 0; i < ns.length; i++) {
            long t0 = System.nanoTime();
            switch (test) {
                case "write_lat" -> {
                    // Ping-pong through memory, as ib_write_lat: each side writes as soon as it
                    // sees the other's write; the completions are reaped after the round trip.
                    byte mark = (byte) (i + 1);
                    lb.a.buf.set(ValueLayout.JAVA_BYTE, last, mark);
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.a.mr, 0, size).rdmaWrite(lb.b.mr.address(), lb.b.mr.rkey()));
                    waitByte(lb, lb.b, last, mark);
                    lb.b.buf.set(ValueLayout.JAVA_BYTE, last + 8192, mark);
                    lb.b.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.b.mr, 8192, size).rdmaWrite(lb.a.mr.address() + 8192, lb.a.mr.rkey()));
                    waitByte(lb, lb.a, last + 8192, mark);
                    long elapsed = System.nanoTime() - t0;
                    Loopback.awaitOne(lb.a.cq, one);
                    Loopback.awaitOne(lb.b.cq, one);
                    ns[i] = elapsed / 2;
                    continue;
                }
                case "send_lat" -> {
                    lb.b.qp.postRecv(rr.wrId(i).buffer(lb.b.mr, 0, size));
                    lb.a.qp.postRecv(rr.wrId(i).buffer(lb.a.mr, 8192, size));
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.a.mr, 0, size).send());
                    Loopback.awaitOne(lb.b.cq, one);
                    Loopback.awaitOne(lb.a.cq, one);
                    lb.b.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.b.mr, 0, size).send());
                    Loopback.awaitOne(lb.a.cq, one);
                    Loopback.awaitOne(lb.b.cq, one);
                }
                case "read_lat" -> {
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.a.mr, 0, size).rdmaRead(lb.b.mr.address(), lb.b.mr.rkey()));
                    Loopback.awaitOne(lb.a.cq, one);
                }
                case "atomic_lat" -> {
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.a.mr, 0, 8).fetchAndAdd(lb.b.mr.address(), lb.b.mr.rkey(), 1));
                    Loopback.awaitOne(lb.a.cq, one);
                }
                case "atomic_write_lat" -> {
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).atomicWrite(lb.b.mr.address(), lb.b.mr.rkey(), i));
                    Loopback.awaitOne(lb.a.cq, one);
                }
                case "write8_lat" -> {
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.a.mr, 0, 8).rdmaWrite(lb.b.mr.address(), lb.b.mr.rkey()));
                    Loopback.awaitOne(lb.a.cq, one);
                }
                case "flush_lat" -> {
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).flush(lb.b.mr.address(), lb.b.mr.rkey(), size,
                            lb.flushType, FlushLevel.RANGE));
                    Loopback.awaitOne(lb.a.cq, one);
                }
                case "flush_mr_lat" -> {
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).flush(0, lb.b.mr.rkey(), 0, lb.flushType, FlushLevel.MR));
                    Loopback.awaitOne(lb.a.cq, one);
                }
                default -> throw new IllegalArgumentException("not a latency test: " + test);
            }
            long elapsed = System.nanoTime() - t0;
            boolean pingPong = test.equals("write_lat") || test.equals("send_lat");
            ns[i] = pingPong ? elapsed / 2 : elapsed;
        }
    }

    private static final WorkCompletion[] NONE = {new WorkCompletion()};

    private static void waitByte(Loopback lb, Loopback.End end, long offset, byte mark) {
        WorkCompletion[] none = NONE;
        while (end.buf.get(ValueLayout.JAVA_BYTE, offset) != mark) {
            // Polling an empty queue drives caller progress for the soft provider.
            if (end.cq.poll(none, 0) != 0) {
                throw new IllegalStateException("unexpected completion");
            }
            lb.a.cq.poll(none, 0);
        }
    }
}
