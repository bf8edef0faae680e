package dev.verbs4j;

import java.time.Duration;
import java.util.Optional;

/**
 * A completion event channel ({@code struct ibv_comp_channel}): a thread blocks here
 * until an armed completion queue has a completion. Closing it while queues use it
 * fails with {@code EBUSY}.
 */
public interface CompletionChannel extends AutoCloseable {
    /**
     * Waits for the next event ({@code ibv_get_cq_event}), which is acknowledged as it is
     * returned ({@code ibv_ack_cq_events}). Re-arm the queue before polling it empty.
     *
     * @return the queue that raised the event, or empty when {@code timeout} passes first
     * @param timeout how long to wait; zero polls once
     * @throws VerbsException with the errno reading the channel gives
     */
    Optional<CompletionQueue> awaitEvent(Duration timeout);

    /**
     * Destroys the channel ({@code ibv_destroy_comp_channel}).
     *
     * @throws VerbsException {@code EBUSY} while queues use it or a thread waits in {@link #awaitEvent}
     */
    @Override
    void close();
}
