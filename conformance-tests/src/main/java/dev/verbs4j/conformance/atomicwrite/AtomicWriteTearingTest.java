package dev.verbs4j.conformance.atomicwrite;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ATOMIC WRITE is one 64-bit store: a CPU reader spinning on the target while the peer
 * alternates two patterns that differ in every byte sees one pattern or the other, never
 * a mix of both.
 */
@ConformanceSuite
class AtomicWriteTearingTest {
    private static final long A = 0x0123456789ABCDEFL;
    private static final long B = ~A;
    private static final int WRITES = 1000;
    private static final int BATCH = 32;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    @Test
    void spinningReaderNeverSeesTornValue(Testbed bed) throws InterruptedException {
        RcPair pair = AtomicWriteSetup.pair(bed, new RcSpec().queueDepth(2 * BATCH, 4));
        Buffer target = pair.remote().buffer(64);
        MemorySegment word = target.slice(8, 8);
        LONG.setVolatile(word, 0L, A);
        // Tracked after the buffer, so the case's end stops it before the word is freed, also
        // when the case is stopped by its time limit (which interrupts the join below).
        Reader reader = bed.track(new Reader(word));
        reader.start();
        assertTrue(reader.running.await(Completions.timeout().toMillis(), TimeUnit.MILLISECONDS), "reader thread started");

        SendWorkRequest wr = new SendWorkRequest();
        try {
            for (int i = 0; i < WRITES; i++) {
                boolean last = i % BATCH == BATCH - 1 || i == WRITES - 1;
                pair.local().qp().postSend(wr.wrId(i).signaled(last).atomicWrite(target.remoteAddress(8), target.rkey(), i % 2 == 0 ? A : B));
                if (last) {
                    Expect.success(WcOpcode.ATOMIC_WRITE, i, Completions.next(pair.local().sendCq(), "atomic write " + i), "atomic write " + i);
                }
            }
        } finally {
            // Also when a write fails: the reader must be gone before the case frees the word it reads
            // (it gives up one timeout after being told to stop).
            reader.stopAfterSeeing(WRITES % 2 == 0 ? B : A);
            reader.join(2 * Completions.timeout().toMillis());
        }

        assertEquals(0, reader.torn.get(), () -> "torn values seen by the reader; first: 0x" + Long.toHexString(reader.firstTorn.get()));
        assertTrue(reader.sawFinal, "the reader saw the last value written (" + reader.changes + " changes observed)");
    }

    /** Reads the word as the CPU does and counts values that are neither pattern. */
    private static final class Reader extends Thread implements AutoCloseable {
        final CountDownLatch running = new CountDownLatch(1);
        final AtomicLong torn = new AtomicLong();
        final AtomicLong firstTorn = new AtomicLong();
        private final MemorySegment word;
        private volatile long finalValue;
        private volatile boolean stopping;
        private volatile boolean quit;
        volatile boolean sawFinal;
        long changes;

        Reader(MemorySegment word) {
            super("atomic-write-reader");
            setDaemon(true);
            this.word = word;
        }

        void stopAfterSeeing(long value) {
            finalValue = value;
            stopping = true;
        }

        /** Stops the reader at once and waits for it to end, even when interrupted: the word is freed next. */
        @Override
        public void close() {
            quit = true;
            boolean interrupted = false;
            while (isAlive()) {
                try {
                    join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void run() {
            running.countDown();
            long previous = A;
            long deadline = 0;
            while (!quit) {
                long v = (long) LONG.getVolatile(word, 0L);
                if (v != A && v != B && torn.getAndIncrement() == 0) {
                    firstTorn.set(v);
                }
                if (v != previous) {
                    changes++;
                    previous = v;
                }
                Thread.onSpinWait();
                if (stopping) {
                    if (v == finalValue) {
                        sawFinal = true;
                        return;
                    }
                    if (deadline == 0) {
                        deadline = System.nanoTime() + Completions.timeout().toNanos();
                    } else if (System.nanoTime() - deadline > 0) {
                        return;
                    }
                }
            }
        }
    }
}
