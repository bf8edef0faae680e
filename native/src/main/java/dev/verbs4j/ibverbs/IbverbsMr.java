package dev.verbs4j.ibverbs;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.MemoryVerbs;
import dev.verbs4j.ibverbs.binding.ibv_mr;
import dev.verbs4j.spi.Resource;
import dev.verbs4j.spi.RevocableRegion;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A registered memory region ({@code struct ibv_mr}). Keys and addresses are cached here:
 * scatter/gather entries read them on the data path, and only {@code ibv_rereg_mr} changes them.
 */
final class IbverbsMr extends Resource implements MemoryRegion, RevocableRegion {
    private static final int EINVAL = 22;

    final IbverbsPd pd;
    final ibv_mr handle;
    private volatile MemorySegment memory;
    private volatile long remoteAddress;
    private volatile int accessMask;
    private volatile int lkey;
    private volatile int rkey;
    private volatile long length;
    /** Whether the memory was found freed while registered (counted once). */
    private final java.util.concurrent.atomic.AtomicBoolean foundFreed = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param memory        the registered memory ({@link MemorySegment#NULL} for an implicit ODP region)
     * @param remoteAddress the address remote requests use for the first byte
     */
    IbverbsMr(IbverbsPd pd, ibv_mr handle, MemorySegment memory, long remoteAddress, int accessMask) {
        super("memory region", pd);
        this.pd = pd;
        this.handle = handle;
        this.memory = memory;
        this.remoteAddress = remoteAddress;
        this.accessMask = accessMask;
        readKeys();
    }

    private void readKeys() {
        lkey = handle.lkey();
        rkey = handle.rkey();
        length = handle.length();
    }

    @Override
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public long address() {
        return remoteAddress;
    }

    @Override
    public long localAddress() {
        return memory.address();
    }

    /** The registered length; an implicit ODP region reports {@code SIZE_MAX}, which reads as -1. */
    @Override
    public long length() {
        return length;
    }

    @Override
    public MemorySegment memory() {
        return memory;
    }

    @Override
    public Set<Access> access() {
        return Access.fromMask(accessMask);
    }

    int accessMask() {
        return accessMask;
    }

    /**
     * {@code ibv_rereg_mr} with {@code IBV_REREG_MR_CHANGE_TRANSLATION} and/or
     * {@code IBV_REREG_MR_CHANGE_ACCESS}. After a new translation remote requests address the
     * region from its new virtual address (rdma-core passes it as the iova).
     */
    @Override
    public synchronized void reregister(MemorySegment newMemory, Set<Access> newAccess) {
        ensureOpen();
        int flags = 0;
        long address = 0;
        long bytes = 0;
        int mask = 0;
        if (newMemory != null) {
            if (!newMemory.isNative()) {
                throw new IllegalArgumentException("only native memory can be registered");
            }
            if (!newMemory.scope().isAlive()) {
                // As at registration: the kernel would pin whatever the allocator put there since.
                throw new VerbsException(Errno.EINVAL, "the new memory is no longer alive: its arena is closed");
            }
            flags |= IbverbsConstants.IBV_REREG_MR_CHANGE_TRANSLATION;
            address = newMemory.address();
            bytes = newMemory.byteSize();
        }
        if (newAccess != null) {
            flags |= IbverbsConstants.IBV_REREG_MR_CHANGE_ACCESS;
            mask = Access.toMask(newAccess);
        }
        if (flags == 0) {
            return;
        }
        int rc = MemoryVerbs.ibv_rereg_mr(handle, flags, pd.handle, address, bytes, mask);
        if (rc == 0 || rc == IbverbsConstants.IBV_REREG_MR_ERR_DO_FORK_OLD) {
            // DO_FORK_OLD: the region was re-registered; only restoring fork behaviour of the old range failed.
            applied(newMemory, newAccess == null ? accessMask : mask);
        }
        if (rc != 0) {
            throw reregFailure(rc, NativeErrors.capturedErrno());
        }
    }

    private void applied(MemorySegment newMemory, int newMask) {
        if (newMemory != null) {
            memory = newMemory;
            remoteAddress = newMemory.address(); // providers pass the new address as the iova
        }
        accessMask = newMask;
        readKeys();
        pd.regions.rekeyed();
    }

    /** Whether the registered memory is alive (an implicit ODP region's always is). Allocates nothing. */
    boolean memoryAlive() {
        MemorySegment memory = this.memory;
        return memory.scope().isAlive();
    }

    /**
     * The memory was found freed while registered: counts it once, then revokes the region.
     *
     * @throws VerbsException when the kernel refuses to deregister it
     */
    void foundFreed() {
        countFreed();
        revoke();
    }

    private void countFreed() {
        if (foundFreed.compareAndSet(false, true)) {
            pd.context.freedRegionFound();
        }
    }

    /**
     * Deallocates the windows this process bound to the region last, then deregisters it
     * ({@code ibv_dealloc_mw}, {@code ibv_dereg_mr}).
     */
    @Override
    public void revoke() {
        if (isClosed()) {
            return;
        }
        pd.closeWindowsBoundTo(this);
        close();
    }

    /** What each {@code IBV_REREG_MR_ERR_*} code leaves behind (ibv_rereg_mr(3)). */
    static VerbsException reregFailure(int code, int errno) {
        String state = switch (code) {
            case IbverbsConstants.IBV_REREG_MR_ERR_INPUT -> "invalid input; the region is unchanged";
            case IbverbsConstants.IBV_REREG_MR_ERR_DONT_FORK_NEW -> "cannot protect the new range from fork; the region is unchanged";
            case IbverbsConstants.IBV_REREG_MR_ERR_DO_FORK_OLD -> "re-registered, but the old range could not be restored for fork";
            case IbverbsConstants.IBV_REREG_MR_ERR_CMD, IbverbsConstants.IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW ->
                    errno == Errno.EOPNOTSUPP.number() ? "the device cannot re-register; the region is unchanged"
                            : "the provider failed; the region's state is unknown, close it";
            default -> "code " + code;
        };
        return new VerbsException(errno, "ibv_rereg_mr failed: " + state);
    }

    /**
     * {@code ibv_dereg_mr}. The kernel's rxe refuses a region with bound windows with
     * {@code EINVAL} (IBA 10.6.7.2.6); when this process bound a live window to the region
     * last, that refusal is reported as the API's {@code EBUSY}, with the kernel's error as cause.
     */
    @Override
    protected void destroy() {
        if (!memoryAlive()) {
            // Freed before it was deregistered: until now the kernel let peers write into it.
            countFreed();
        }
        int rc = MemoryVerbs.ibv_dereg_mr(handle);
        if (rc != 0) {
            throw deregisterFailure(rc, pd.hasWindowBoundTo(this));
        }
        if (!foundFreed.get()) {
            // A region found over freed memory stays listed, so later requests naming its
            // lkey are refused alike, until the kernel hands the lkey to a new region.
            pd.regions.remove(this);
        }
    }

    /** The exception for a failed {@code ibv_dereg_mr} result. */
    static VerbsException deregisterFailure(int result, boolean windowBound) {
        int errno = result < 0 ? -result : result;
        VerbsException failure = NativeErrors.failure(errno, "ibv_dereg_mr");
        if (errno == EINVAL && windowBound) {
            return new VerbsException(Errno.EBUSY.number(), "memory region has bound memory windows", failure);
        }
        return failure;
    }
}
