package dev.verbs4j.ibverbs;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.MemoryVerbs;
import dev.verbs4j.ibverbs.binding.ibv_mw;
import dev.verbs4j.spi.Resource;

import java.util.Set;

/** A memory window ({@code struct ibv_mw}). */
final class IbverbsMw extends Resource implements MemoryWindow {
    final IbverbsPd pd;
    final ibv_mw handle;
    private final MwType type;
    private volatile int rkey;
    private volatile IbverbsMr boundRegion;
    /**
     * Type 2: whether the last request posted for this window was a bind with a length, so
     * that invalidating it is safe (see {@link SendPoster}'s LOCAL_INV check).
     */
    private volatile boolean bound;

    IbverbsMw(IbverbsPd pd, ibv_mw handle, MwType type) {
        super("memory window", pd);
        this.pd = pd;
        this.handle = handle;
        this.type = type;
        this.rkey = handle.rkey();
    }

    @Override
    public MwType type() {
        return type;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    /** The region the last bind posted by this process put the window on, or null. */
    IbverbsMr boundRegion() {
        return boundRegion;
    }

    /**
     * {@code ibv_bind_mw}: the provider posts the bind and steps the key's low byte
     * ({@code ibv_inc_rkey}); the new key is read back from {@code mw->rkey}. A region is
     * required even for a zero-length (invalidating) bind: rxe's provider reads its lkey.
     * The queue pair does the call under its monitor, holding this window and the region
     * open; this window's monitor is not held, so posts (queue pair, then window) and binds
     * take the two in one order.
     */
    @Override
    public int bind(QueuePair qp, long wrId, boolean signaled, MemoryRegion region, long address,
                                 long length, Set<Access> access) {
        ensureOpen();
        if (type != MwType.TYPE_1) {
            throw new VerbsException(Errno.EINVAL, "ibv_bind_mw binds type 1 windows; bind type 2 with a BIND_MW work request");
        }
        if (!(qp instanceof IbverbsQp queuePair)) {
            throw new VerbsException(Errno.EINVAL, "the queue pair belongs to another provider");
        }
        if (!(region instanceof IbverbsMr mr)) {
            throw new VerbsException(Errno.EINVAL, region == null
                    ? "a bind needs the region (also a zero-length one)" : "the region belongs to another provider");
        }
        return queuePair.bindType1(this, mr, wrId, signaled, address, length, Access.toMask(access));
    }

    /** A type 1 bind went through: the key the provider stepped, and the region it left the window on. */
    int bound(IbverbsMr region, long length) {
        rkey = handle.rkey();
        boundRegion = length == 0 ? null : region;
        return rkey;
    }

    /**
     * A BIND_MW work request was posted for this (type 2) window: its new key is the key the
     * next bind names the window by ({@code ibv_wr_bind_mw} reads {@code mw->rkey}, which
     * only the application updates for type 2 windows).
     */
    void bindPosted(int newRkey, IbverbsMr region, long length) {
        rkey = newRkey;
        handle.rkey(newRkey);
        boundRegion = length == 0 ? null : region;
        bound = length != 0;
    }

    /**
     * Whether a LOCAL_INV of this type 2 window may reach the kernel: a bind with a length
     * was posted for it since it was allocated or a LOCAL_INV was last posted for it. The
     * kernel's rxe faults when it invalidates a type 2 window without a queue pair or region
     * (one never bound, bound with no length, or invalidated already). A peer's SEND_WITH_INV
     * invalidates a window unseen here until this process polls the receive completion that
     * reports it; a LOCAL_INV posted in between still reaches the kernel.
     */
    boolean mayBeInvalidated() {
        return bound;
    }

    /**
     * The window was invalidated: a LOCAL_INV naming its key was posted, or a receive
     * completion reported a peer's SEND_WITH_INV of it.
     */
    void invalidated() {
        bound = false;
    }

    @Override
    protected void destroy() {
        NativeErrors.check(MemoryVerbs.ibv_dealloc_mw(handle), "ibv_dealloc_mw");
        pd.windowClosed(this);
        boundRegion = null;
    }
}
