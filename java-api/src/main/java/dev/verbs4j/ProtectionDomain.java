package dev.verbs4j;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A protection domain ({@code struct ibv_pd}): regions, windows, queue pairs, SRQs and
 * address handles of one domain may be used together, and only together. Closing it
 * while any of them are alive fails with {@code EBUSY}.
 */
public interface ProtectionDomain extends AutoCloseable {
    /**
     * The context this domain belongs to.
     *
     * @return the context ({@code ibv_pd.context})
     */
    DeviceContext context();

    /**
     * Registers memory ({@code ibv_reg_mr}). The segment must be native (not heap) memory
     * and alive, and the caller keeps its arena open until the region (and every window
     * bound to it) is closed: a peer holding the rkey writes wherever the region points
     * ({@link RegisteredArena} keeps that order for you). The region keeps the segment
     * reachable, so memory of an automatic arena lives as long as it. A provider whose own
     * threads move the bytes (the soft provider) refuses memory confined to one thread.
     * Memory freed while registered anyway is looked for (see
     * {@link DeviceContext#freedMemoryRegions}): a request naming its region is refused with
     * {@code EFAULT} and the region invalidated. With {@link Access#ON_DEMAND} the
     * pages are not pinned or touched: they are faulted in when the transport first uses them.
     * With {@link Access#ZERO_BASED} remote addresses start at 0.
     *
     * @throws VerbsException {@code EINVAL} for an access set libibverbs rejects (remote
     *         write or atomic without local write; FLUSH_PERSISTENT on memory that is not
     *         persistent), for memory whose arena is closed, or for memory the provider's
     *         threads cannot reach; {@code EFAULT} for read-only memory with
     *         {@link Access#LOCAL_WRITE}; {@code EOPNOTSUPP} for a capability the device lacks
     * @param memory the native memory to register
     * @param access the rights; an empty set allows local reads only
     * @return the region, with its lkey and rkey
     */
    MemoryRegion registerMemory(MemorySegment memory, Set<Access> access);

    /**
     * Registers memory with a chosen I/O virtual address ({@code ibv_reg_mr_iova}): remote
     * requests address the region from {@code iova}.
     * The same rules as {@link #registerMemory(MemorySegment, Set)} apply.
     *
     * @param memory the native memory to register
     * @param iova the address the region's first byte has for remote and local requests
     * @param access the rights
     * @return the region
     * @throws VerbsException as {@link #registerMemory(MemorySegment, Set)}
     */
    MemoryRegion registerMemory(MemorySegment memory, long iova, Set<Access> access);

    /**
     * Registers the whole address space as one implicit On-Demand Paging region
     * ({@code ibv_reg_mr(pd, NULL, SIZE_MAX, IBV_ACCESS_ON_DEMAND | ...)}).
     *
     * @throws VerbsException {@code EOPNOTSUPP} where implicit ODP is not supported
     * @param access the rights; {@link Access#ON_DEMAND} is implied
     * @return the region covering every address of the process
     */
    MemoryRegion registerImplicitOnDemand(Set<Access> access);

    /**
     * Allocates a region for fast registration through {@link WrOpcode#REG_MR} work
     * requests, with room for {@code maxPages} pages and no memory bound yet.
     *
     * @throws VerbsException {@code EOPNOTSUPP} where the provider has no user-space
     *         fast registration (libibverbs has none)
     * @param maxPages the most pages one registration may map
     * @return the region, with keys but no memory behind them until a REG_MR request completes
     */
    MemoryRegion allocateFastRegMr(int maxPages);

    /**
     * Advises the provider about On-Demand Paging ranges ({@code ibv_advise_mr}).
     *
     * @param flags {@link MrAdvice#FLAG_FLUSH} to return only when done, else 0
     * @param sges  the ranges, as address, length and lkey of registered ODP regions
     * @throws VerbsException {@code EINVAL} for a range outside its region or a region
     *         that is not on-demand, {@code EOPNOTSUPP} where prefetch is not supported
     * @param advice what to do with the ranges, e.g. prefetch them for writing
     */
    void adviseMr(MrAdvice advice, int flags, ScatterGatherList sges);

    /**
     * Allocates a memory window ({@code ibv_alloc_mw}).
     *
     * @param type type 1 (bound by {@link MemoryWindow#bind}) or type 2 (bound by a BIND_MW work request)
     * @return the window, not yet bound
     * @throws VerbsException {@code EINVAL} for a type the device lacks
     */
    MemoryWindow allocateMw(MwType type);

    /**
     * Creates a queue pair ({@code ibv_create_qp_ex}).
     * The queue pair starts in RESET.
     *
     * @param attributes its type, completion queues, capacities and operations
     * @return the queue pair; the device may have granted larger capacities than asked
     * @throws VerbsException {@code EINVAL} for capacities above the device's limits or completion
     *         queues of another context, {@code EOPNOTSUPP} for an operation the device lacks
     */
    QueuePair createQp(QpInitAttributes attributes);

    /**
     * Creates a shared receive queue ({@code ibv_create_srq}).
     *
     * @param maxWr the queue's depth in receive requests ({@code max_wr})
     * @param maxSge scatter entries per request ({@code max_sge})
     * @param limit the arming limit ({@code srq_limit}); 0 leaves it unarmed
     * @return the shared receive queue
     * @throws VerbsException {@code EINVAL} for a depth or entry count above the device's limits
     */
    SharedReceiveQueue createSrq(int maxWr, int maxSge, int limit);

    /**
     * Creates an address handle for UD sends ({@code ibv_create_ah}).
     *
     * @param attributes the destination's GID or LID, port and GID index
     * @return the handle
     * @throws VerbsException {@code EINVAL} for a bad port or GID index; on RoCE a GID that cannot be
     *         resolved to a MAC address fails as libibverbs reports it
     */
    AddressHandle createAh(AddressHandleAttributes attributes);

    /**
     * Deallocates the domain ({@code ibv_dealloc_pd}).
     *
     * @throws VerbsException {@code EBUSY} while children are alive
     */
    @Override
    void close();
}
