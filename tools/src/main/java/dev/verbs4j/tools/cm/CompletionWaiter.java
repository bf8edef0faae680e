package dev.verbs4j.tools.cm;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for completions one at a time, spinning first, then yielding, then parking, so a
 * soft device's engine thread gets the CPU on a machine with few cores. Nothing is
 * allocated while waiting.
 */
public final class CompletionWaiter {
    private static final int SPINS = 2_000;
    private static final long PARK_NS = 20_000;
    private static final int LOOK_EVERY = 50;
    private static final BooleanSupplier NEVER = () -> false;

    private final CompletionQueue cq;
    private final long timeoutNs;
    private final WorkCompletion[] one = {new WorkCompletion()};

    /** @param timeoutNs how long {@link #next} waits before it gives up */
    public CompletionWaiter(CompletionQueue cq, long timeoutNs) {
        this.cq = cq;
        this.timeoutNs = timeoutNs;
    }

    /**
     * The next completion (reused by the next call), successful or not.
     *
     * @throws IllegalStateException when none comes in time, naming {@code waitingFor}
     */
    public WorkCompletion next(String waitingFor) {
        return next(waitingFor, NEVER);
    }

    /**
     * The next completion (reused by the next call), successful or not, or null when
     * {@code giveUp} says to stop waiting: it is asked every {@value #LOOK_EVERY} parked polls
     * (about once a millisecond), never while the wait spins.
     *
     * @throws IllegalStateException when none comes in time, naming {@code waitingFor}
     */
    public WorkCompletion next(String waitingFor, BooleanSupplier giveUp) {
        long start = System.nanoTime();
        int polls = 0;
        while (cq.poll(one) == 0) {
            polls++;
            if (polls < SPINS) {
                Thread.onSpinWait();
            } else if (polls < 2 * SPINS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(PARK_NS);
                if (polls % LOOK_EVERY == 0 && giveUp.getAsBoolean()) {
                    return null;
                }
                if (System.nanoTime() - start > timeoutNs) {
                    throw new IllegalStateException("no completion within " + timeoutNs / 1_000_000 + " ms waiting for "
                            + waitingFor);
                }
            }
        }
        return one[0];
    }

    /** The next completion, which must be successful. @throws IllegalStateException otherwise */
    public WorkCompletion nextSuccessful(String waitingFor) {
        WorkCompletion wc = next(waitingFor);
        if (wc.status() != WcStatus.SUCCESS) {
            throw new IllegalStateException(waitingFor + ": a request failed: " + wc);
        }
        return wc;
    }
}
