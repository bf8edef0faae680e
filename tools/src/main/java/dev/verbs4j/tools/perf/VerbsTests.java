package dev.verbs4j.tools.perf;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The perftest-style measurements over a {@link PerfPair}: bandwidth keeps {@code depth}
 * requests in flight; latency runs one operation at a time (ping-pong for WRITE and SEND,
 * as ib_write_lat and ib_send_lat do; request-response for the others).
 */
final class VerbsTests {
    private VerbsTests() {
    }

    /**
     * How a bandwidth test keeps requests in flight: {@code depth} in all, spread over
     * {@code qps} queue pairs (perftest's {@code -q}); every {@code signalEvery}-th request of a
     * pair asks for a completion (perftest's {@code -Q}); {@code postList} requests per post
     * call (perftest's {@code -l}), all to one pair.
     */
    record Pipeline(int depth, int qps, int signalEvery, int postList) {
        /** One request per call, a completion for each, on one queue pair. */
        static Pipeline of(int depth) {
            return new Pipeline(depth, 1, 1, 1);
        }
    }

    /**
     * Bandwidth: each list of requests goes to the next queue pair in turn. Only every
     * {@code signalEvery}-th request of a pair is signaled (and the last of each pair), at
     * most {@code (depth - postList) / qps + 1} apart so that a signaled one is always in
     * flight when no more fit. With a {@code durationNs} (perftest's {@code -D}), runs of
     * {@code iterations} follow each other until that much time has passed.
     */
    static Result bandwidth(String test, PerfPair lb, int size, int iterations, int warmUp, Pipeline pipeline,
                            long durationNs) {
        int depth = pipeline.depth();
        int qps = pipeline.qps();
        if (qps > 1 && test.equals("send_bw")) {
            throw new IllegalArgumentException("send_bw runs on one queue pair; --qps applies to write_bw, read_bw and the atomics");
        }
        QueuePair[] requesters = lb.requesters(qps);
        int list = pipeline.postList();
        Posting posting = new Posting(requesters, list,
                Math.max(1, Math.min(pipeline.signalEvery(), (depth - list) / requesters.length + 1)));
        BandwidthLoop loop = new BandwidthLoop(test, lb, posting, size, depth);
        loop.postReceives();
        WarmUp.run(iterations, warmUp, lb, test, size, n -> {
            lb.begin(test, size, n);
            loop.run(n);
            lb.end();
        });
        lb.begin(test, size, iterations);
        Progress.start(test + " " + size + " B", iterations, durationNs);
        long allocBefore = Allocation.allocatedBytes();
        long start = System.nanoTime();
        double peak = 0;
        int total = 0;
        while (true) {
            peak = Math.max(peak, loop.run(iterations));
            total += iterations;
            Progress.advance(iterations);
            if (!goOn(System.nanoTime(), start, durationNs, total, iterations, Integer.MAX_VALUE)) {
                break;
            }
            lb.end();
            lb.begin(test, size, iterations);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double alloc = (Allocation.allocatedBytes() - allocBefore) / (double) total;
        Progress.finish();
        lb.end();
        String setup = qps > 1 ? lb.description + ", " + qps + " QPs" : lb.description;
        return Result.bandwidth(test, setup, size, total, seconds, peak, alloc);
    }

    /** The most latency samples a run keeps (80 MB of them); a longer {@code -D} run stops there. */
    static final int MAX_SAMPLES = 10_000_000;

    /**
     * Whether another run of {@code iterations} follows at {@code nowNs}: only with a duration
     * that has not passed since {@code start}, and while the total stays within {@code limit}.
     */
    static boolean goOn(long nowNs, long start, long durationNs, int total, int iterations, int limit) {
        return durationNs > 0 && nowNs - start < durationNs && total <= limit - iterations;
    }

    /**
     * Which queue pair a request goes to and whether it is signaled. A signaled request's
     * work request id is the number of requests of its pair that its completion accounts for.
     */
    static final class Posting {
        final int pairs;
        final int list;
        final int signalEvery;
        final int[] unsignaled;
        final QueuePair[] requesters;

        Posting(QueuePair[] requesters, int list, int signalEvery) {
            this.requesters = requesters;
            this.pairs = requesters.length;
            this.list = list;
            this.signalEvery = signalEvery;
            this.unsignaled = new int[pairs];
        }

        /**
         * Sets {@code wr}'s id and signaling for request {@code index} of {@code iterations}
         * (lists of {@code list} go to the pairs in turn); returns its pair.
         */
        int prepare(SendWorkRequest wr, int index, int iterations) {
            int pair = index / list % pairs;
            int covered = ++unsignaled[pair];
            if (covered == signalEvery || index >= iterations - pairs * list) {
                wr.wrId(covered).signaled(true);
                unsignaled[pair] = 0;
            } else {
                wr.wrId(0).signaled(false);
            }
            return pair;
        }
    }

    /**
     * {@code iterations} operations, one at a time, each timed; with a {@code durationNs}
     * (perftest's {@code -D}), runs of {@code iterations} follow each other until that much
     * time has passed, and every sample counts.
     */
    static Result latency(String test, PerfPair lb, int size, int iterations, int warmUp, int threads, long durationNs) {
        long[] ns = new long[iterations];
        WarmUp.run(iterations, warmUp, lb, test, size, n -> measureLatency(test, lb, size, new long[n], threads));
        Progress.start(test + " " + size + " B", iterations, durationNs);
        long[] samples = ns;
        int total = 0;
        long allocated = 0;
        long start = System.nanoTime();
        while (true) {
            long allocBefore = Allocation.allocatedBytes();
            measureLatency(test, lb, size, ns, threads);
            allocated += Allocation.allocatedBytes() - allocBefore;
            if (samples != ns) {
                if (samples.length - total < iterations) {
                    samples = java.util.Arrays.copyOf(samples, Math.max(2 * samples.length, total + iterations));
                }
                System.arraycopy(ns, 0, samples, total, iterations);
            }
            total += iterations;
            Progress.advance(iterations);
            if (!goOn(System.nanoTime(), start, durationNs, total, iterations, Math.max(iterations, MAX_SAMPLES))) {
                break;
            }
            if (samples == ns) {
                samples = java.util.Arrays.copyOf(ns, 4 * iterations);
            }
        }
        Progress.finish();
        return Result.latency(test, lb.description, size, total == ns.length ? ns : java.util.Arrays.copyOf(samples, total),
                allocated / (double) total);
    }

    private static void measureLatency(String test, PerfPair lb, int size, long[] ns, int threads) {
        End a = lb.a;
        End b = lb.responder();
        boolean pingPong = test.equals("write_lat") || test.equals("send_lat");
        if (pingPong) {
            PingPong.clearIncomingMark(a, size, true);
            if (b != null) {
                PingPong.clearIncomingMark(b, size, false);
            }
        }
        if (b == null || (pingPong && threads > 1)) {
            lb.begin(test, size, ns.length);
            if (test.equals("write_lat")) {
                writePingPong(lb, size, ns);
            } else if (test.equals("send_lat")) {
                sendPingPong(lb, size, ns);
            } else {
                requestResponse(test, lb, size, ns);
            }
            lb.end();
            return;
        }
        if (pingPong) {
            oneThreadPingPong(test, a, b, size, ns);
        } else {
            requestResponse(test, lb, size, ns);
        }
    }

    /** One operation at a time, each timed from its post to its completion. */
    private static void requestResponse(String test, PerfPair lb, int size, long[] ns) {
        End a = lb.a;
        SendWorkRequest wr = new SendWorkRequest();
        WorkCompletion[] one = {new WorkCompletion()};
        for (int i = 0; i < ns.length; i++) {
            long t0 = System.nanoTime();
            wr.wrId(i).signaled(true);
            switch (test) {
                case "read_lat" -> wr.buffer(a.mr, 0, size).rdmaRead(lb.remoteAddress, lb.remoteRkey);
                case "atomic_lat" -> wr.buffer(a.mr, 0, 8).fetchAndAdd(lb.remoteAddress, lb.remoteRkey, 1);
                case "atomic_write_lat" -> wr.atomicWrite(lb.remoteAddress, lb.remoteRkey, i);
                case "write8_lat" -> wr.buffer(a.mr, 0, 8).rdmaWrite(lb.remoteAddress, lb.remoteRkey);
                case "flush_lat" -> wr.flush(lb.remoteAddress, lb.remoteRkey, size, lb.flushType, FlushLevel.RANGE);
                case "flush_mr_lat" -> wr.flush(0, lb.remoteRkey, 0, lb.flushType, FlushLevel.MR);
                default -> throw new IllegalArgumentException("not a latency test: " + test);
            }
            a.qp.postSend(wr);
            PerfPair.awaitOne(a.cq, one);
            ns[i] = System.nanoTime() - t0;
            Progress.update(i + 1);
        }
    }

    /**
     * WRITE or SEND ping-pong with one thread for both sides, in turn: each answers as soon as
     * it sees the other's message (a WRITE's last byte, a receive's completion); the send
     * completions are reaped after the round trip. (Each side of perftest's ib_send_lat awaits
     * its send's completion before its next step, as {@link PingPong#driveSends} does: one
     * thread has no such step to wait for.)
     */
    private static void oneThreadPingPong(String test, End a, End b, int size, long[] ns) {
        SendWorkRequest wr = new SendWorkRequest();
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] one = {new WorkCompletion()};
        long last = PingPong.markOffset(size);
        long reply = PingPong.REPLY;
        for (int i = 0; i < ns.length; i++) {
            long t0 = System.nanoTime();
            if (test.equals("write_lat")) {
                byte mark = (byte) (i + 1);
                a.buf.set(ValueLayout.JAVA_BYTE, last, mark);
                a.qp.postSend(wr.wrId(i).signaled(true).buffer(a.mr, 0, size).rdmaWrite(b.mr.address(), b.mr.rkey()));
                awaitByte(a, b, b.buf, last, mark);
                b.buf.set(ValueLayout.JAVA_BYTE, last + reply, mark);
                b.qp.postSend(wr.wrId(i).signaled(true).buffer(b.mr, reply, size).rdmaWrite(a.mr.address() + reply, a.mr.rkey()));
                awaitByte(a, b, a.buf, last + reply, mark);
                ns[i] = (System.nanoTime() - t0) / 2;
                PerfPair.awaitOne(a.cq, one);
                PerfPair.awaitOne(b.cq, one);
            } else {
                b.qp.postRecv(rr.wrId(i).buffer(b.mr, 0, size));
                a.qp.postRecv(rr.wrId(i).buffer(a.mr, reply, size));
                a.qp.postSend(wr.wrId(i).signaled(true).buffer(a.mr, 0, size).send());
                int sendsReapedB = awaitReceive(b.cq, one);
                b.qp.postSend(wr.wrId(i).signaled(true).buffer(b.mr, reply, size).send());
                int sendsReapedA = awaitReceive(a.cq, one);
                ns[i] = (System.nanoTime() - t0) / 2;
                awaitSend(a.cq, one, sendsReapedA);
                awaitSend(b.cq, one, sendsReapedB);
            }
            Progress.update(i + 1);
        }
    }

    /** Reaps {@code cq} up to its next receive's completion; returns how many send completions came first. */
    private static int awaitReceive(CompletionQueue cq, WorkCompletion[] one) {
        int sends = 0;
        while (true) {
            PerfPair.awaitOne(cq, one);
            if (one[0].opcode().isReceive()) {
                return sends;
            }
            sends++;
        }
    }

    /** Reaps the one send completion of a round trip, unless {@link #awaitReceive} already did. */
    private static void awaitSend(CompletionQueue cq, WorkCompletion[] one, int alreadyReaped) {
        if (alreadyReaped == 0) {
            PerfPair.awaitOne(cq, one);
        }
    }

    /**
     * ib_write_lat's ping-pong: each side has its own thread (here, or in the serving process
     * when the responder is elsewhere); the reported latency is half the round trip.
     */
    private static void writePingPong(PerfPair lb, int size, long[] ns) {
        End b = lb.responder();
        Thread responder = b == null ? null : Thread.ofPlatform().name("write_lat responder")
                .start(() -> PingPong.answerWrites(b, lb.a.mr.address(), lb.a.mr.rkey(), size, ns.length, () -> false));
        // A responder thread that died (its stack trace is on standard error) never replies.
        PingPong.driveWrites(lb.a, lb.remoteAddress, lb.remoteRkey, size, ns, () -> responder != null && !responder.isAlive());
        join(responder);
    }

    /**
     * ib_send_lat's ping-pong, as {@link #writePingPong} is ib_write_lat's: the responder's
     * first receive is posted before the requester's first SEND.
     */
    private static void sendPingPong(PerfPair lb, int size, long[] ns) {
        End b = lb.responder();
        Thread responder = null;
        if (b != null) {
            PingPong.postFirstReceive(b, size);
            responder = Thread.ofPlatform().name("send_lat responder")
                    .start(() -> PingPong.answerSends(b, size, ns.length, () -> false));
        }
        PingPong.driveSends(lb.a, size, ns);
        join(responder);
    }

    private static void join(Thread thread) {
        if (thread != null) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits for {@code mark} at {@code offset}, polling both (empty) queues in turn, which
     * drives caller progress, and looking for the mark after each poll, as an application that
     * answers as soon as its message is in does.
     */
    private static void awaitByte(End a, End b, MemorySegment buf, long offset, byte mark) {
        WorkCompletion[] none = NO_COMPLETIONS;
        for (int turn = 0; buf.get(ValueLayout.JAVA_BYTE, offset) != mark; turn ^= 1) {
            (turn == 0 ? a : b).cq.poll(none, 0);
        }
    }

    private static final WorkCompletion[] NO_COMPLETIONS = {new WorkCompletion()};
}
