package dev.verbs4j.conformance.misuse;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.conformance.fixture.Completions;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * One round of a close racing a use: a user thread and the closing thread leave a barrier
 * together. The user calls until it sees the object closed; the closer closes, again while
 * the object is busy ({@code EBUSY}). Whatever interleaving the scheduler picks, both end:
 * the cases assert outcomes, never timings (the time-out only turns a hang into a failure).
 */
final class Race implements AutoCloseable {
    /** The user's side: calls the object until it answers as a closed object does, then returns. */
    @FunctionalInterface
    interface User {
        void useUntilClosed() throws Exception;
    }

    private final ExecutorService userThread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "misuse-user");
        t.setDaemon(true);
        return t;
    });

    void round(User user, AutoCloseable object, String what) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        Future<?> using = userThread.submit(() -> {
            start.await();
            user.useUntilClosed();
            return null;
        });
        start.await();
        closeWhileBusy(object);
        try {
            using.get(Completions.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            fail(what + ": the user thread failed with " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            using.cancel(true);
            fail(what + ": the user thread did not see the object closed");
        }
    }

    /** Closes, trying again while the object is in use: {@code EBUSY} is the one refusal allowed. */
    static void closeWhileBusy(AutoCloseable object) throws Exception {
        while (true) {
            try {
                object.close();
                return;
            } catch (VerbsException e) {
                if (e.errno() != Errno.EBUSY.number()) {
                    throw e;
                }
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void close() {
        userThread.shutdownNow();
    }
}
