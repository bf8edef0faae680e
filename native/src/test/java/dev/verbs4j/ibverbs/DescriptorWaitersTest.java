package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.spi.Resource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The waiters of a descriptor and a close that they hold off ({@code EBUSY}): a refused close
 * holds new waits back for a moment, so that a closer that tries again gets in even when a
 * thread waits again at once after each wait, as a loop of short timed waits does.
 */
class DescriptorWaitersTest {
    /** A resource whose close is refused while a thread waits, as a completion channel's is. */
    private static final class Owner extends Resource {
        final DescriptorWaiters waiters = new DescriptorWaiters(this);

        Owner() {
            super("descriptor owner");
        }

        @Override
        protected void destroy() {
            waiters.refuseCloseWhileWaiting(System.nanoTime(), "a thread is waiting");
        }
    }

    @Test
    void aRefusedCloseHoldsNewWaitsBackForAMoment() {
        Owner owner = new Owner();
        DescriptorWaiters waiters = owner.waiters;
        long t = 1_000_000_000L;
        assertTrue(waiters.tryEnter(t));
        synchronized (owner) {
            assertEquals(Errno.EBUSY, assertThrows(VerbsException.class,
                    () -> waiters.refuseCloseWhileWaiting(t, "waiting")).error());
        }
        waiters.exit();
        assertTrue(!waiters.tryEnter(t + DescriptorWaiters.CLOSE_FIRST_NS - 1), "held back right after the refusal");
        assertEquals(0, waiters.count());
        assertTrue(waiters.tryEnter(t + DescriptorWaiters.CLOSE_FIRST_NS), "after the moment, waits go on");
        assertEquals(1, waiters.count());
        waiters.exit();
        owner.close();
        assertThrows(IllegalStateException.class, () -> waiters.tryEnter(t), "no wait starts on a closed owner");
    }

    @Test
    void aCloserGetsPastAThreadWaitingInALoop() throws Exception {
        Owner owner = new Owner();
        CompletableFuture<Integer> looping = CompletableFuture.supplyAsync(() -> {
            int waits = 0;
            try {
                while (true) {
                    owner.waiters.enter();
                    waits++;
                    LockSupport.parkNanos(1_000_000L);
                    owner.waiters.exit();
                }
            } catch (IllegalStateException closed) {
                return waits;
            }
        });
        while (owner.waiters.count() == 0) {
            Thread.onSpinWait();
        }
        int refusals = 0;
        while (true) {
            try {
                owner.close();
                break;
            } catch (VerbsException e) {
                assertEquals(Errno.EBUSY, e.error());
                refusals++;
            }
        }
        assertTrue(looping.get(30, TimeUnit.SECONDS) > 0);
        assertTrue(refusals > 0, "the first close found the thread waiting");
        assertEquals(0, owner.waiters.count());
    }
}
