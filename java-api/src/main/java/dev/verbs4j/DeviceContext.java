package dev.verbs4j;

import java.time.Duration;
import java.util.Optional;

/**
 * An open device ({@code struct ibv_context}). Closing it while protection domains,
 * completion queues or channels are alive fails with {@code EBUSY}.
 */
public interface DeviceContext extends AutoCloseable {
    /** The device this context was opened on. */
    Device device();

    /** Device attributes ({@code ibv_query_device_ex}). */
    DeviceAttributes queryDevice();

    /** Port attributes ({@code ibv_query_port}); ports count from 1. @throws VerbsException {@code EINVAL} for a bad port */
    PortAttributes queryPort(int port);

    /** A GID table entry ({@code ibv_query_gid}). @throws VerbsException {@code EINVAL} for a bad port or index */
    Gid queryGid(int port, int index);

    /**
     * How many completion vectors the device has ({@code ibv_context.num_comp_vectors}): a
     * completion queue's vector is below it.
     */
    int completionVectorCount();

    /** Allocates a protection domain ({@code ibv_alloc_pd}). */
    ProtectionDomain allocatePd();

    /** Creates a completion event channel ({@code ibv_create_comp_channel}). */
    CompletionChannel createCompletionChannel();

    /**
     * Creates a completion queue ({@code ibv_create_cq}).
     *
     * @param minEntries at least this many entries; the queue may be larger
     * @param channel    the channel that receives its events, or {@code null}
     * @param vector     completion vector, below {@link #completionVectorCount()}
     * @throws VerbsException {@code EINVAL} if {@code minEntries} is below 1 or above the device limit,
     *                        or {@code vector} is not one of the device's
     */
    CompletionQueue createCq(int minEntries, CompletionChannel channel, int vector);

    /** Creates a completion queue with no channel. */
    default CompletionQueue createCq(int minEntries) {
        return createCq(minEntries, null, 0);
    }

    /**
     * Waits for the next asynchronous event ({@code ibv_get_async_event}), which is
     * acknowledged as it is returned.
     *
     * @return the event, or empty when {@code timeout} passes first
     */
    Optional<AsyncEvent> nextAsyncEvent(Duration timeout);

    /**
     * How many memory regions this context found registered over memory the application had
     * freed (their arena closed while they were registered). A provider looks when a work
     * request names a region ({@link VerbsException} {@code EFAULT} then), at one region per
     * empty poll (the soft provider: per idle engine step, and whenever a request reaches a
     * region), and when a region is deregistered; each region found is invalidated (a peer's
     * request through its keys fails with {@link WcStatus#REM_ACCESS_ERR}) and counted once.
     * A count above zero means a peer may have written into freed memory before it was found:
     * register memory through a {@link RegisteredArena}, or close regions before their arena.
     * Contexts of one soft device share one count.
     */
    long freedMemoryRegions();

    /** Closes the device ({@code ibv_close_device}). @throws VerbsException {@code EBUSY} while children are alive */
    @Override
    void close();
}
