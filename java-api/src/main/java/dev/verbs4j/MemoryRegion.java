package dev.verbs4j;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A registered memory region ({@code struct ibv_mr}). Closing it deregisters it
 * ({@code ibv_dereg_mr}); that fails with {@code EBUSY} while memory windows are bound to it.
 */
public interface MemoryRegion extends AutoCloseable {
    /**
     * The domain the region belongs to.
     *
     * @return the domain ({@code ibv_mr.pd})
     */
    ProtectionDomain protectionDomain();

    /**
     * The key local work requests name the region with.
     * It is {@code ibv_mr.lkey}, what an {@code ibv_sge} carries.
     *
     * @return the key
     */
    int lkey();

    /**
     * The key remote requests name the region with.
     * It is {@code ibv_mr.rkey}; a peer needs it, with {@link #address()}, for RDMA and atomics.
     *
     * @return the key
     */
    int rkey();

    /**
     * The address remote requests use for the first byte (the I/O virtual address; 0 when zero-based).
     * It is {@code ibv_mr.addr} for a region registered at its own address.
     *
     * @return the address
     */
    long address();

    /**
     * The local address of the first byte, as scatter/gather entries name it.
     *
     * @return the segment's native address
     */
    long localAddress();

    /**
     * The region's length in bytes.
     * It is {@code ibv_mr.length}.
     *
     * @return bytes
     */
    long length();

    /**
     * The registered memory ({@link MemorySegment#NULL} for an unbound fast-register region).
     *
     * @return the segment
     */
    MemorySegment memory();

    /**
     * The access rights the region was registered with.
     *
     * @return a set the caller may not change
     */
    Set<Access> access();

    /**
     * Re-registers the region ({@code ibv_rereg_mr}) with new memory and/or rights, keeping
     * the object. A {@code null} argument keeps that property.
     *
     * @throws VerbsException {@code EOPNOTSUPP} where the device cannot re-register
     * @param memory the new memory, or null to keep the current one
     * @param access the new rights, or null to keep the current ones
     */
    void reregister(MemorySegment memory, Set<Access> access);

    /**
     * Deregisters the region ({@code ibv_dereg_mr}); its keys stop working.
     *
     * @throws VerbsException {@code EBUSY} while windows are bound to it
     */
    @Override
    void close();
}
