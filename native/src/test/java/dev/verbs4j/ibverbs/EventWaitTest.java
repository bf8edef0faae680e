package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.AsyncEventType;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.FileDescriptors;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Timed waits for completion and async events on non-blocking descriptors: a pipe stands
 * in for the channel's and the context's descriptor.
 */
class EventWaitTest {
    private final FakeDevice fake = new FakeDevice();
    private final int[] pipe = FakeVerbs.pipe();

    @AfterEach
    void release() {
        if (pipe[0] >= 0) {
            FakeVerbs.close(pipe[0]);
        }
        FakeVerbs.close(pipe[1]);
        fake.close();
    }

    /** A channel on the pipe's read end, non-blocking as the provider makes channel descriptors. */
    private IbverbsChannel channelOnPipe() {
        assertEquals(0, FileDescriptors.setNonBlocking(pipe[0]));
        return new IbverbsChannel(fake.context, FakeVerbs.channelOf(fake.device, pipe[0]));
    }

    /**
     * A pipe's write end whose read end is closed: poll reports it (POLLERR) and the
     * following read fails with EBADF, as it is not open for reading. The descriptor stays
     * ours, so no other file can take its number during the test.
     */
    private int unreadableDescriptor() {
        FakeVerbs.close(pipe[0]);
        pipe[0] = -1;
        return pipe[1];
    }

    @Test
    void awaitEventReturnsEmptyWhenTheTimeoutPasses() {
        IbverbsChannel channel = channelOnPipe();
        long start = System.nanoTime();
        assertEquals(Optional.empty(), channel.awaitEvent(Duration.ofMillis(60)));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(60), "waited the whole timeout");
        assertEquals(0, channel.waiters());
    }

    @Test
    void awaitEventOnABadDescriptorCarriesTheReadErrno() {
        IbverbsChannel channel = new IbverbsChannel(fake.context, FakeVerbs.channelOf(fake.device, unreadableDescriptor()));
        VerbsException e = assertThrows(VerbsException.class, () -> channel.awaitEvent(Duration.ofSeconds(5)));
        assertEquals(FakeVerbs.ebadf(), e.errno(), "poll reports the descriptor, ibv_get_cq_event's read fails");
    }

    /**
     * The waiter's timeout is far longer than the test: the test, not the clock, ends the
     * wait, with one byte on the pipe once the close has been refused. A byte is no event
     * (an event is a 16-byte {@code struct ib_uverbs_comp_event_desc}): {@code ibv_get_cq_event}'s
     * short read fails without setting errno, which the provider reports as {@code EIO}.
     */
    @Test
    void closingAChannelWhileAThreadWaitsIsEbusy() throws Exception {
        IbverbsChannel channel = channelOnPipe();
        CompletableFuture<Optional<?>> waiter = CompletableFuture.supplyAsync(() -> channel.awaitEvent(Duration.ofMinutes(5)));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (channel.waiters() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(1, channel.waiters());
            assertEquals(Errno.EBUSY, assertThrows(VerbsException.class, channel::close).error());
            assertEquals(1, channel.waiters(), "the refused close leaves the wait alone");
        } finally {
            FakeVerbs.write(pipe[1], new byte[1]);
        }
        ExecutionException ended = assertThrows(ExecutionException.class, () -> waiter.get(30, TimeUnit.SECONDS));
        assertEquals(Errno.EIO, assertInstanceOf(VerbsException.class, ended.getCause()).error(),
                "ibv_get_cq_event's short read");
        assertEquals(0, channel.waiters());
    }

    @Test
    void nextAsyncEventReturnsEmptyWhenTheTimeoutPasses() {
        assertEquals(0, FileDescriptors.setNonBlocking(pipe[0]));
        FakeVerbs.setAsyncFd(fake.device, pipe[0]);
        assertEquals(Optional.empty(), fake.context.nextAsyncEvent(Duration.ofMillis(20)));
        assertEquals(Optional.empty(), fake.context.nextAsyncEvent(Duration.ZERO));
    }

    @Test
    void nextAsyncEventOnABadDescriptorCarriesTheReadErrno() {
        FakeVerbs.setAsyncFd(fake.device, unreadableDescriptor());
        VerbsException e = assertThrows(VerbsException.class, () -> fake.context.nextAsyncEvent(Duration.ofSeconds(5)));
        assertEquals(FakeVerbs.ebadf(), e.errno());
    }

    @Test
    void waitsRoundUpAndNeverOverflow() {
        assertEquals(0, DescriptorWait.of(Duration.ZERO).remainingMillis());
        assertEquals(0, DescriptorWait.of(Duration.ofMillis(-5)).remainingMillis());
        assertEquals(Integer.MAX_VALUE, DescriptorWait.of(ChronoUnit.FOREVER.getDuration()).remainingMillis());
        int rounded = DescriptorWait.of(Duration.ofNanos(1_500_000_000L)).remainingMillis();
        assertTrue(rounded > 1400 && rounded <= 1500, "1.5 s in whole ms: " + rounded);
    }

    @Test
    void eventTypesBeyondTheApiAreSkipped() {
        assertEquals(AsyncEventType.SRQ_LIMIT_REACHED,
                IbverbsContext.eventType(IbverbsConstants.IBV_EVENT_SRQ_LIMIT_REACHED));
        assertEquals(null, IbverbsContext.eventType(20));
    }
}
