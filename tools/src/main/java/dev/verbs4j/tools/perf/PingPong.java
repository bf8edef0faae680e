package dev.verbs4j.tools.perf;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;

import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;

/**
 * The two halves of the ping-pong latency tests, each run by the thread (or process) of its
 * side, as ib_write_lat's and ib_send_lat's two processes do.
 * <p>
 * WRITE: the requester writes {@code size} bytes from offset 0 of its buffer to offset 0 of
 * the responder's; the responder, seeing the last byte change, writes back from its offset
 * {@link #REPLY} to the requester's offset {@code REPLY}. Each reaps its completions while
 * it waits. The last byte of each message carries the iteration's mark, so a message is
 * seen only once it has fully landed (RC places in order).
 * <p>
 * A requester learns of a peer gone away from its failed requests; a responder, which only
 * waits, asks {@code abandoned} now and then.
 */
final class PingPong {
    /** Where in both buffers the WRITE replies go. */
    static final long REPLY = 8192;

    private PingPong() {
    }

    /** Where the mark of a {@code size}-byte message lies, from the start of its area. */
    static long markOffset(int size) {
        return Math.max(0, size - 1);
    }

    /** The mark of iteration {@code i}: never 0 on the first, which is what cleared memory holds. */
    private static byte mark(int i) {
        return (byte) (i + 1);
    }

    /** Clears the byte where {@code end} sees a WRITE arrive: before the peer may write there. */
    static void clearIncomingMark(End end, int size, boolean requester) {
        end.buf.set(ValueLayout.JAVA_BYTE, markOffset(size) + (requester ? REPLY : 0), (byte) 0);
    }

    /**
     * The requester's half of the WRITE ping-pong: {@code ns[i]} is half of round trip {@code i}.
     * Fails when {@code abandoned} says the responder is gone, as {@link #answerWrites} does.
     */
    static void driveWrites(End a, long remoteAddress, int remoteRkey, int size, long[] ns, BooleanSupplier abandoned) {
        long last = markOffset(size);
        SendWorkRequest wr = new SendWorkRequest();
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        for (int i = 0; i < ns.length; i++) {
            byte mark = mark(i);
            long t0 = System.nanoTime();
            a.buf.set(ValueLayout.JAVA_BYTE, last, mark);
            a.qp.postSend(wr.wrId(i).signaled(true).buffer(a.mr, 0, size).rdmaWrite(remoteAddress, remoteRkey));
            for (long spins = 1; a.buf.get(ValueLayout.JAVA_BYTE, last + REPLY) != mark; spins++) {
                reap(a.cq, wcs);
                checkAbandoned(spins, abandoned);
            }
            ns[i] = (System.nanoTime() - t0) / 2;
            Progress.update(i + 1);
        }
        drain(a.cq);
    }

    /** The responder's half of the WRITE ping-pong, {@code count} replies. */
    static void answerWrites(End b, long remoteAddress, int remoteRkey, int size, int count, BooleanSupplier abandoned) {
        long last = markOffset(size);
        SendWorkRequest wr = new SendWorkRequest();
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        for (int i = 0; i < count; i++) {
            byte mark = mark(i);
            for (long spins = 1; b.buf.get(ValueLayout.JAVA_BYTE, last) != mark; spins++) {
                reap(b.cq, wcs);
                checkAbandoned(spins, abandoned);
            }
            b.buf.set(ValueLayout.JAVA_BYTE, last + REPLY, mark);
            b.qp.postSend(wr.wrId(i).signaled(true).buffer(b.mr, REPLY, size).rdmaWrite(remoteAddress + REPLY, remoteRkey));
        }
        drain(b.cq);
    }

    /**
     * The requester's half of the SEND ping-pong: a receive is posted before each message,
     * so the reply always finds one; {@code ns[i]} is half of round trip {@code i}.
     */
    static void driveSends(End a, int size, long[] ns) {
        SendWorkRequest wr = new SendWorkRequest();
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] one = {new WorkCompletion()};
        for (int i = 0; i < ns.length; i++) {
            a.qp.postRecv(rr.wrId(i).buffer(a.mr, REPLY, size));
            long t0 = System.nanoTime();
            a.qp.postSend(wr.wrId(i).signaled(true).buffer(a.mr, 0, size).send());
            PerfPair.awaitOne(a.cq, one);
            PerfPair.awaitOne(a.cq, one);
            ns[i] = (System.nanoTime() - t0) / 2;
            Progress.update(i + 1);
        }
    }

    /**
     * The responder's half of the SEND ping-pong, {@code count} replies. The first receive is
     * posted here, before the requester is told to start; each next one before the reply
     * that lets the requester send again.
     */
    static void postFirstReceive(End b, int size) {
        b.qp.postRecv(new ReceiveWorkRequest().wrId(0).buffer(b.mr, 0, size));
    }

    /** See {@link #postFirstReceive}: call that first. */
    static void answerSends(End b, int size, int count, BooleanSupplier abandoned) {
        SendWorkRequest wr = new SendWorkRequest();
        ReceiveWorkRequest rr = new ReceiveWorkRequest();
        WorkCompletion[] one = {new WorkCompletion()};
        for (int i = 0; i < count; i++) {
            awaitOne(b.cq, one, abandoned);
            if (i + 1 < count) {
                b.qp.postRecv(rr.wrId(i + 1).buffer(b.mr, 0, size));
            }
            b.qp.postSend(wr.wrId(i).signaled(true).buffer(b.mr, REPLY, size).send());
            awaitOne(b.cq, one, abandoned);
        }
    }

    private static void awaitOne(CompletionQueue cq, WorkCompletion[] one, BooleanSupplier abandoned) {
        for (long spins = 1; reap(cq, one) == 0; spins++) {
            checkAbandoned(spins, abandoned);
        }
    }

    /** Polls {@code cq} once; fails on an error completion. */
    private static int reap(CompletionQueue cq, WorkCompletion[] wcs) {
        int n = cq.poll(wcs, wcs.length);
        for (int i = 0; i < n; i++) {
            if (!wcs[i].isSuccess()) {
                throw new IllegalStateException("operation failed: " + wcs[i]);
            }
        }
        return n;
    }

    /** Every 65,536 spins of a wait, fails if {@code abandoned} says the peer is gone. */
    static void checkAbandoned(long spins, BooleanSupplier abandoned) {
        if ((spins & 0xFFFF) == 0 && abandoned.getAsBoolean()) {
            throw new IllegalStateException("the peer went away in the middle of the run");
        }
    }

    /** Polls until no completion has come for a moment (the last ones of a ping-pong). */
    static void drain(CompletionQueue cq) {
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < 20_000_000L) {
            if (cq.poll(wcs, wcs.length) > 0) {
                quietSince = System.nanoTime();
            }
        }
    }
}
