package dev.verbs4j.tools.perf;

import dev.verbs4j.FlushLevel;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The perftest-style measurements over a {@link Loopback}: bandwidth keeps {@code depth}
 * requests in flight; latency runs one operation at a time (ping-pong for WRITE and SEND,
 * as ib_write_lat and ib_send_lat do; request-response for the others).
 */
final class VerbsTests {
    private VerbsTests() {
    }

    /** Bandwidth over {@code qps} queue pairs, each request posted to the next pair in turn; {@code depth} in flight in all. */
    static Result bandwidth(String test, Loopback lb, int size, int iterations, int depth, int qps) {
        if (qps > 1 && test.equals("send_bw")) {
            throw new IllegalArgumentException("send_bw runs on one queue pair; --qps applies to write_bw, read_bw and the atomics");
        }
        QueuePair[] requesters = lb.requesters(qps);
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
        run(test, lb, requesters, wr, rr, wcs, size, Math.min(iterations, 1000), depth, send);
        long allocBefore = Allocation.allocatedBytes();
        long start = System.nanoTime();
        double peak = run(test, lb, requesters, wr, rr, wcs, size, iterations, depth, send);
        double seconds = (System.nanoTime() - start) / 1e9;
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
        String setup = qps > 1 ? lb.description + ", " + qps + " QPs" : lb.description;
        return Result.bandwidth(test, setup, size, iterations, seconds, peak, alloc);
    }

    /** Runs {@code iterations} operations; returns the best Gb/s over windows of 1/10th of the run. */
    private static double run(String test, Loopback lb, QueuePair[] requesters, SendWorkRequest wr, ReceiveWorkRequest rr, WorkCompletion[] wcs,
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
                requesters[posted % requesters.length].postSend(wr);
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

    static Result latency(String test, Loopback lb, int size, int iterations, int threads) {
        long[] ns = new long[iterations];
        measureLatency(test, lb, size, new long[Math.min(iterations, 1000)], threads);
        long allocBefore = Allocation.allocatedBytes();
        measureLatency(test, lb, size, ns, threads);
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) iterations;
        return Result.latency(test, lb.description, size, ns, alloc);
    }

    private static void measureLatency(String test, Loopback lb, int size, long[] ns, int threads) {
        if (test.equals("write_lat") && threads > 1) {
            writePingPong(lb, size, ns);
            return;
        }
        SendWorkRequest wr = new SendWorkRequest();
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] one = {new WorkCompletion()};
        long last = Math.max(0, size - 1);
        for (int i = 0; i < ns.length; i++) {
            long t0 = System.nanoTime();
            switch (test) {
                case "write_lat" -> {
                    // One thread, both sides in turn: each writes as soon as it sees the
                    // other's write; completions are reaped after the round trip.
                    byte mark = (byte) (i + 1);

                    lb.a.buf.set(ValueLayout.JAVA_BYTE, last, mark);
                    lb.a.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.a.mr, 0, size).rdmaWrite(lb.b.mr.address(), lb.b.mr.rkey()));
                    awaitByte(lb, lb.b.buf, last, mark);
                    lb.b.buf.set(ValueLayout.JAVA_BYTE, last + 8192, mark);
                    lb.b.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.b.mr, 8192, size).rdmaWrite(lb.a.mr.address() + 8192, lb.a.mr.rkey()));
                    awaitByte(lb, lb.a.buf, last + 8192, mark);
                    ns[i] = (System.nanoTime() - t0) / 2;
                    Loopback.awaitOne(lb.a.cq, one);
                    Loopback.awaitOne(lb.b.cq, one);
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
            ns[i] = test.equals("send_lat") ? elapsed / 2 : elapsed;
        }
    }

    /**
     * ib_write_lat's ping-pong: each side has its own thread, writes as soon as it sees the
     * other's write land in its memory, and reaps its completions in between; the reported
     * latency is half the round trip.
     */
    private static void writePingPong(Loopback lb, int size, long[] ns) {
        long last = Math.max(0, size - 1);
        int iterations = ns.length;
        Thread responder = Thread.ofPlatform().name("write_lat responder").start(() -> {
            SendWorkRequest wr = new SendWorkRequest();
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
            for (int i = 0; i < iterations; i++) {
                byte mark = (byte) (i + 1);
                while (lb.b.buf.get(ValueLayout.JAVA_BYTE, last) != mark) {
                    lb.b.cq.poll(wcs, wcs.length);
                }
                lb.b.buf.set(ValueLayout.JAVA_BYTE, last + 8192, mark);
                lb.b.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.b.mr, 8192, size).rdmaWrite(lb.a.mr.address() + 8192, lb.a.mr.rkey()));
            }
            drain(lb.b.cq);
        });
        SendWorkRequest wr = new SendWorkRequest();
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        for (int i = 0; i < iterations; i++) {
            byte mark = (byte) (i + 1);
            long t0 = System.nanoTime();
            lb.a.buf.set(ValueLayout.JAVA_BYTE, last, mark);
            lb.a.qp.postSend(wr.wrId(i).signaled(true).buffer(lb.a.mr, 0, size).rdmaWrite(lb.b.mr.address(), lb.b.mr.rkey()));
            while (lb.a.buf.get(ValueLayout.JAVA_BYTE, last + 8192) != mark) {
                lb.a.cq.poll(wcs, wcs.length);
            }
            ns[i] = (System.nanoTime() - t0) / 2;
        }
        drain(lb.a.cq);
        try {
            responder.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for {@code mark} at {@code offset}, polling both (empty) queues: that drives caller progress. */
    private static void awaitByte(Loopback lb, MemorySegment buf, long offset, byte mark) {
        WorkCompletion[] none = NO_COMPLETIONS;
        while (buf.get(ValueLayout.JAVA_BYTE, offset) != mark) {
            lb.a.cq.poll(none, 0);
            lb.b.cq.poll(none, 0);
        }
    }

    private static final WorkCompletion[] NO_COMPLETIONS = {new WorkCompletion()};

    /** Polls until no completion has come for a moment (the last ones of a ping-pong). */
    private static void drain(dev.verbs4j.CompletionQueue cq) {
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < 20_000_000L) {
            if (cq.poll(wcs, wcs.length) > 0) {
                quietSince = System.nanoTime();
            }
        }
    }

}
