package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

import java.util.concurrent.locks.LockSupport;

/**
 * Polls a completion queue as a busy-polling benchmark must on a machine with few cores:
 * spin first, then yield, then park briefly, so the soft device's engine thread gets the CPU
 * it needs to produce what is waited for. A failed completion ends the run.
 */
final class Completions {
    private static final int SPINS = 2_000;
    private static final long PARK_NS = 20_000;
    private static final long STALL_NS = 30_000_000_000L;

    private final CompletionQueue cq;
    private final WorkCompletion[] batch;
    private final String what;

    Completions(CompletionQueue cq, int batchSize, String what) {
        this.cq = cq;
        this.what = what;
        this.batch = new WorkCompletion[batchSize];
        for (int i = 0; i < batchSize; i++) {
            batch[i] = new WorkCompletion();
        }
    }

    /** Polls once; returns how many completed (in {@link #at}), all successful. */
    int pollOnce() {
        int n = cq.poll(batch, batch.length);
        for (int i = 0; i < n; i++) {
            if (batch[i].status() != WcStatus.SUCCESS) {
                throw new IllegalStateException(what + " failed: " + batch[i]);
            }
        }
        return n;
    }

    /** Waits for at least one completion; returns how many came. */
    int await() {
        Backoff backoff = new Backoff();
        while (true) {
            int n = pollOnce();
            if (n > 0) {
                return n;
            }
            backoff.idle(what);
        }
    }

    WorkCompletion at(int i) {
        return batch[i];
    }

    /** Spin, yield, then park; gives up when nothing came for a long time. */
    static final class Backoff {
        private int idle;
        private long start = System.nanoTime();

        /** After progress: the next wait starts from a spin again. */
        void reset() {
            idle = 0;
            start = System.nanoTime();
        }

        void idle(String what) {
            idle++;
            if (idle < SPINS) {
                Thread.onSpinWait();
            } else if (idle < 2 * SPINS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(PARK_NS);
                if ((idle & 1023) == 0 && System.nanoTime() - start > STALL_NS) {
                    throw new IllegalStateException("nothing for " + STALL_NS / 1_000_000_000 + " s waiting for " + what);
                }
            }
        }
    }
}
