package dev.verbs4j;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An open device ({@code struct ibv_context}). Closing it while protection domains,
 * completion queues or channels are alive fails with {@code EBUSY}.
 */
public interface DeviceContext extends AutoCloseable {
    /**
     * The device this context was opened on.
     *
     * @return the device
     */
    Device device();

    /**
     * Device attributes ({@code ibv_query_device_ex}).
     *
     * @return the attributes, read anew at each call
     * @throws VerbsException with the errno {@code ibv_query_device_ex} gives
     */
    DeviceAttributes queryDevice();

    /**
     * Port attributes ({@code ibv_query_port}); ports count from 1.
     *
     * @param port the port number
     * @return the attributes, read anew at each call
     * @throws VerbsException {@code EINVAL} for a bad port
     */
    PortAttributes queryPort(int port);

    /**
     * A GID table entry ({@code ibv_query_gid}).
     *
     * @param port the port number
     * @param index the GID table index
     * @return the GID
     * @throws VerbsException {@code EINVAL} for a bad port or index
     */
    Gid queryGid(int port, int index);

    /**
     * A populated GID table entry with its type and network device ({@code ibv_query_gid_ex}).
     *
     * @throws VerbsException {@code ENODATA} for an empty slot, {@code EINVAL} for a bad port or an index past the table
     * @param port the port number
     * @param index the GID table index
     * @return the entry
     */
    GidEntry queryGidEntry(int port, int index);

    /**
     * Every populated GID table entry of every port ({@code ibv_query_gid_table}), by port then index.
     *
     * @param maxEntries room for this many entries
     * @throws VerbsException {@code EINVAL} when more entries are populated than {@code maxEntries}
     * @return the entries, unmodifiable
     */
    List<GidEntry> queryGidTable(int maxEntries);

    /**
     * A P_Key table entry ({@code ibv_query_pkey}), in host order.
     *
     * @throws VerbsException {@code EINVAL} for a bad port, {@code ENOENT} for an index past the table
     * @param port the port number
     * @param index the P_Key table index
     * @return the P_Key, 16 bits
     */
    int queryPkey(int port, int index);

    /**
     * The index of a P_Key in the port's table ({@code ibv_get_pkey_index}).
     *
     * @param pkey the P_Key in host order, e.g. {@code 0xffff}, the default
     * @throws VerbsException {@code EINVAL} for a bad port, {@code ENOENT} when the table does not hold it
     * @param port the port number
     * @return the index
     */
    int pkeyIndex(int port, int pkey);

    /**
     * How many completion vectors the device has ({@code ibv_context.num_comp_vectors}): a
     * completion queue's vector is below it.
     *
     * @return the count, at least 1
     */
    int completionVectorCount();

    /**
     * Allocates a protection domain ({@code ibv_alloc_pd}).
     *
     * @return the new protection domain
     * @throws VerbsException with the errno {@code ibv_alloc_pd} gives, e.g. {@code ENOMEM}
     */
    ProtectionDomain allocatePd();

    /**
     * Creates a completion event channel ({@code ibv_create_comp_channel}).
     *
     * @return the new channel
     * @throws VerbsException with the errno {@code ibv_create_comp_channel} gives
     */
    CompletionChannel createCompletionChannel();

    /**
     * Creates a completion queue ({@code ibv_create_cq}).
     *
     * @param minEntries at least this many entries; the queue may be larger
     * @param channel    the channel that receives its events, or {@code null}
     * @param vector     completion vector, below {@link #completionVectorCount()}
     * @throws VerbsException {@code EINVAL} if {@code minEntries} is below 1 or above the device limit,
     *                        or {@code vector} is not one of the device's
     * @return the new completion queue
     */
    CompletionQueue createCq(int minEntries, CompletionChannel channel, int vector);

    /**
     * Creates a completion queue with no channel.
     * It uses completion vector 0.
     *
     * @param minEntries at least this many entries; the queue may be larger
     * @return the new completion queue
     * @throws VerbsException {@code EINVAL} if {@code minEntries} is below 1 or above the device limit
     */
    default CompletionQueue createCq(int minEntries) {
        return createCq(minEntries, null, 0);
    }

    /**
     * Creates a completion queue read field by field ({@code ibv_create_cq_ex}).
     *
     * @param minEntries at least this many entries; the queue may be larger
     * @param channel    the channel that receives its events, or {@code null}
     * @param vector     completion vector, below {@link #completionVectorCount()}
     * @param fields     the optional fields its completions report, e.g. {@link WcField#STANDARD}
     * @param flags      creation flags
     * @throws VerbsException {@code EOPNOTSUPP} for a field or flag the device cannot provide, {@code EINVAL}
     *                        as {@link #createCq(int, CompletionChannel, int)}
     * @return the new completion queue
     */
    ExtendedCompletionQueue createExtendedCq(int minEntries, CompletionChannel channel, int vector, Set<WcField> fields,
                                             Set<CqCreateFlag> flags);

    /**
     * Waits for the next asynchronous event ({@code ibv_get_async_event}), which is
     * acknowledged as it is returned.
     *
     * @return the event, or empty when {@code timeout} passes first
     * @param timeout how long to wait; zero polls once
     * @throws VerbsException with the errno reading the event gives
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
     * It has no libibverbs counterpart: libibverbs cannot tell that registered memory was freed.
     *
     * @return the count since the context opened
     */
    long freedMemoryRegions();

    /**
     * Closes the device ({@code ibv_close_device}).
     *
     * @throws VerbsException {@code EBUSY} while children are alive or a thread waits in {@link #nextAsyncEvent}
     */
    @Override
    void close();
}
