package dev.verbs4j;

import dev.verbs4j.spi.RevocableRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * An arena whose memory is registered for as long as it exists: {@code ibv_reg_mr} at
 * allocation, {@code ibv_dereg_mr} before the memory is freed. Every allocation is
 * registered in one protection domain with the access rights the arena was made with, and
 * {@link #regionOf} or {@link #allocateRegion} give its {@link MemoryRegion}. What it does
 * for you:
 * <ul>
 * <li>{@link #close()} takes every key away before it frees a byte: windows bound to its
 * regions are deallocated (their {@link MemoryWindow} objects are closed), fast-registered
 * regions over its memory are invalidated, its regions are deregistered, and only then is
 * the memory freed. A peer holding one of its rkeys gets {@link WcStatus#REM_ACCESS_ERR}
 * from then on; it never writes into memory the process has freed.</li>
 * <li>The memory is shared ({@link Arena#ofShared()}): any thread, including a provider's
 * own, may use it.</li>
 * </ul>
 * What it does not do: free single allocations (no arena does), or outlive its protection
 * domain (close the arena first; the domain refuses to close with {@code EBUSY} while its
 * regions are registered). Registering each allocation costs a system call on providers
 * that pin memory in the kernel: allocate few, large segments.
 *
 * <p>Thread-safe: it may be allocated from and closed by any thread. As {@link Arena}
 * says, closing it a second time throws {@link IllegalStateException}, and of several
 * threads that close it at once, one does and the others get that exception.
 */
public final class RegisteredArena implements Arena {
    private final ProtectionDomain pd;
    private final EnumSet<Access> access;
    private final Arena memory = Arena.ofShared();
    /** The live regions by the address of their first byte; guarded by this. */
    private final NavigableMap<Long, MemoryRegion> regions = new TreeMap<>();
    /** Guarded by this. */
    private boolean closed;

    private RegisteredArena(ProtectionDomain pd, Set<Access> access) {
        this.pd = pd;
        this.access = EnumSet.noneOf(Access.class);
        this.access.addAll(access);
    }

    /**
     * An arena whose allocations are registered in {@code pd} with {@code access}.
     *
     * @throws VerbsException {@code EINVAL} for an access set registration refuses (remote
     *         write or atomic without {@link Access#LOCAL_WRITE}), or {@link Access#ZERO_BASED}
     *         (every allocation would start at remote address 0)
     * @param pd the protection domain every allocation is registered in
     * @param access the rights of every region, copied
     * @return the new, open arena
     * @throws NullPointerException if an argument is null
     */
    public static RegisteredArena of(ProtectionDomain pd, Set<Access> access) {
        Objects.requireNonNull(pd, "pd");
        Objects.requireNonNull(access, "access");
        boolean remoteWriteLike = access.contains(Access.REMOTE_WRITE) || access.contains(Access.REMOTE_ATOMIC);
        if (remoteWriteLike && !access.contains(Access.LOCAL_WRITE)) {
            throw new VerbsException(Errno.EINVAL, "remote write or atomic access needs LOCAL_WRITE (IBTA 10.6.3.1)");
        }
        if (access.contains(Access.ZERO_BASED)) {
            throw new VerbsException(Errno.EINVAL, "each allocation would start at remote address 0: register zero-based"
                    + " memory with ProtectionDomain.registerMemory");
        }
        return new RegisteredArena(pd, access);
    }

    /**
     * The domain the arena registers in.
     *
     * @return the domain given to {@link #of}
     */
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /**
     * The rights every region of the arena has.
     *
     * @return a new set
     */
    public Set<Access> access() {
        return EnumSet.copyOf(access);
    }

    /**
     * Allocates and registers {@code byteSize} bytes.
     *
     * @throws IllegalStateException if the arena is closed
     * @throws VerbsException        when the provider refuses the registration (the bytes stay
     *                               allocated until the arena closes)
     * @param byteSize bytes to allocate, 1 or more
     * @param byteAlignment the alignment, a power of two
     * @return the segment, zeroed, registered for as long as the arena is open
     */
    @Override
    public MemorySegment allocate(long byteSize, long byteAlignment) {
        return allocateRegion(byteSize, byteAlignment).memory();
    }

    /**
     * Allocates and registers {@code byteSize} bytes and returns their region; see {@link #allocate}.
     *
     * @param byteSize bytes to allocate, 1 or more
     * @param byteAlignment the alignment, a power of two
     * @return the region over the new segment
     * @throws IllegalStateException if the arena is closed
     * @throws VerbsException when the provider refuses the registration
     */
    public synchronized MemoryRegion allocateRegion(long byteSize, long byteAlignment) {
        ensureOpen();
        MemorySegment segment = memory.allocate(byteSize, byteAlignment);
        MemoryRegion region = pd.registerMemory(segment, access);
        regions.put(segment.address(), region);
        return region;
    }

    /**
     * Allocates and registers {@code byteSize} page-aligned bytes and returns their region.
     *
     * @param byteSize bytes to allocate, 1 or more
     * @return the region over the new segment, aligned to 4096 bytes
     * @throws IllegalStateException if the arena is closed
     * @throws VerbsException when the provider refuses the registration
     */
    public MemoryRegion allocateRegion(long byteSize) {
        return allocateRegion(byteSize, 4096);
    }

    /**
     * The region of the allocation that holds all of {@code segment}.
     *
     * @throws IllegalArgumentException if no allocation of this arena holds it
     * @throws IllegalStateException    if the arena is closed
     * @param segment a segment of the arena's memory, e.g. a slice of an allocation
     * @return the region whose lkey and rkey cover it
     */
    public synchronized MemoryRegion regionOf(MemorySegment segment) {
        ensureOpen();
        Map.Entry<Long, MemoryRegion> e = regions.floorEntry(segment.address());
        if (e != null) {
            MemorySegment registered = e.getValue().memory();
            long offset = segment.address() - registered.address();
            if (segment.byteSize() <= registered.byteSize() - offset) {
                return e.getValue();
            }
        }
        throw new IllegalArgumentException("the segment at 0x" + Long.toHexString(segment.address())
                + " is not memory of this arena");
    }

    @Override
    public MemorySegment.Scope scope() {
        return memory.scope();
    }

    /**
     * Takes every key to the arena's memory away, then frees the memory (see the class
     * comment). If the provider refuses to deregister a region, the arena stays open with
     * that region and the ones not yet deregistered, nothing is freed, and the refusal is
     * thrown: memory a key may still reach is never freed.
     *
     * @throws IllegalStateException if the arena is already closed
     * @throws VerbsException        when a region cannot be deregistered
     */
    @Override
    public synchronized void close() {
        ensureOpen();
        var it = regions.values().iterator();
        while (it.hasNext()) {
            MemoryRegion region = it.next();
            if (region instanceof RevocableRegion revocable) {
                revocable.revoke();
            } else {
                region.close();
            }
            it.remove();
        }
        closed = true;
        memory.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("Already closed");
        }
    }
}
