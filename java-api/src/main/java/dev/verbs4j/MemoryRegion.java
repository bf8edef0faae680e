package dev.verbs4j;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A registered memory region ({@code struct ibv_mr}). Closing it deregisters it
 * ({@code ibv_dereg_mr}); that fails with {@code EBUSY} while memory windows are bound to it.
 */
public interface MemoryRegion extends AutoCloseable {
    /** The domain the region belongs to. */
    ProtectionDomain protectionDomain();

    /** The key local work requests name the region with. */
    int lkey();

    /** The key remote requests name the region with. */
    int rkey();

    /** The address remote requests use for the first byte (the I/O virtual address; 0 when zero-based). */
    long address();

    /** The local address of the first byte, as scatter/gather entries name it. */
    long localAddress();

    /** The region's length in bytes. */
    long length();

    /** The registered memory ({@link MemorySegment#NULL} for an unbound fast-register region). */
    MemorySegment memory();

    /** The access rights the region was registered with. */
    Set<Access> access();

    /**
     * Re-registers the region ({@code ibv_rereg_mr}) with new memory and/or rights, keeping
     * the object. A {@code null} argument keeps that property.
     *
     * @throws VerbsException {@code EOPNOTSUPP} where the device cannot re-register
     */
    void reregister(MemorySegment memory, Set<Access> access);

    /** Deregisters the region. @throws VerbsException {@code EBUSY} while windows are bound to it */
    @Override
    void close();
}
