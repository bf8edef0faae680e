package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.spi.Resource;

import java.util.concurrent.locks.LockSupport;

/**
 * The threads waiting on a descriptor that closing its owner would free under them (a
 * completion channel's, a context's async-event descriptor), counted under the owner's
 * monitor, where the owner's close runs too. A close refused because a thread waits
 * ({@code EBUSY}) holds new waits back for {@value #CLOSE_FIRST_NS} ns: a closer that tries
 * again then finds no waiter once the current waits end, however quickly a thread waits
 * again after each one. Without that, a thread that waits in a loop leaves a closer only the
 * instants between two waits, which on a loaded machine it may miss for seconds.
 */
final class DescriptorWaiters {
    /** How long after a refused close new waits hold back. */
    static final long CLOSE_FIRST_NS = 2_000_000L;
    private static final long HOLD_BACK_PARK_NS = 100_000L;

    private final Resource owner;
    private int count; // guarded by owner
    private boolean closeRefused; // guarded by owner
    private long closeRefusedAtNs; // guarded by owner

    DescriptorWaiters(Resource owner) {
        this.owner = owner;
    }

    /**
     * A thread starts waiting; it holds back first while a close was refused moments ago.
     *
     * @throws IllegalStateException when the owner is closed (or closes meanwhile)
     */
    void enter() {
        while (!tryEnter(System.nanoTime())) {
            LockSupport.parkNanos(HOLD_BACK_PARK_NS);
        }
    }

    /**
     * A thread starts waiting at {@code nowNs}, unless a close was refused less than
     * {@link #CLOSE_FIRST_NS} before.
     *
     * @return whether it may wait now
     * @throws IllegalStateException when the owner is closed
     */
    boolean tryEnter(long nowNs) {
        synchronized (owner) {
            owner.ensureOpen();
            if (closeRefused && nowNs - closeRefusedAtNs < CLOSE_FIRST_NS) {
                return false;
            }
            closeRefused = false;
            count++;
            return true;
        }
    }

    /** The threads waiting now. */
    int count() {
        synchronized (owner) {
            return count;
        }
    }

    /** A thread's wait ended. */
    void exit() {
        synchronized (owner) {
            count--;
        }
    }

    /**
     * For the owner's {@code destroy}, under its monitor: refuses the close while a thread
     * waits, and holds new waits back from {@code nowNs}.
     *
     * @throws VerbsException {@code EBUSY} while a thread waits, with {@code message}
     */
    void refuseCloseWhileWaiting(long nowNs, String message) {
        if (count > 0) {
            closeRefused = true;
            closeRefusedAtNs = nowNs;
            throw new VerbsException(Errno.EBUSY, message);
        }
    }
}
