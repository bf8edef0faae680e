package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.MemoryObjectHolder;
import dev.verbs4j.softroce.memory.MemoryObject;
import dev.verbs4j.softroce.memory.Window;
import dev.verbs4j.spi.Resource;

import java.util.Set;

/** A memory window. */
final class SoftMw extends Resource implements MemoryWindow, MemoryObjectHolder {
    private final SoftPd pd;
    private final Window window;
    private final MwType type;
    private volatile int rkey;

    SoftMw(SoftPd pd, Window window, MwType type) {
        super("memory window", pd);
        this.pd = pd;
        this.window = window;
        this.type = type;
        this.rkey = window.key();
    }

    @Override
    public MemoryObject memoryObject() {
        return window;
    }

    @Override
    public MwType type() {
        return type;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    /** libibverbs' {@code ibv_bind_mw} checks, then a BIND_MW request on the QP. */
    @Override
    public int bind(QueuePair qp, long wrId, boolean signaled, MemoryRegion region, long address, long length, Set<Access> access) {
        ensureOpen();
        if (type != MwType.TYPE_1) {
            throw new VerbsException(Errno.EINVAL, "ibv_bind_mw binds type 1 windows; bind type 2 with a BIND_MW work request");
        }
        if (region == null) {
            // Even a zero-length (invalidating) bind names its region, as the rxe provider
            // needs; both providers refuse it alike.
            throw new VerbsException(Errno.EINVAL, "a bind needs a region, also a zero-length one");
        }
        if (region != null && region.protectionDomain() != pd) {
            throw new VerbsException(Errno.EPERM, "window and region belong to different protection domains");
        }
        int newRkey = MemoryWindow.incrementRkey(rkey);
        SendWorkRequest wr = new SendWorkRequest().wrId(wrId).signaled(signaled)
                .bindMw(this, newRkey, region, address, length, Access.toMask(access));
        qp.postSend(wr);
        rkey = newRkey;
        return newRkey;
    }

    /** For type 2 binds posted by the application: the rkey the window will answer to. */
    void rkeyPosted(int newRkey) {
        rkey = newRkey;
    }

    /** Whether the window is bound to {@code region} now. */
    boolean boundTo(dev.verbs4j.softroce.memory.Region region) {
        var engine = pd.context.engine;
        engine.lock().lock();
        try {
            return window.region() == region;
        } finally {
            engine.lock().unlock();
        }
    }

    @Override
    protected void destroy() {
        var engine = pd.context.engine;
        engine.lock().lock();
        try {
            engine.memory().remove(window);
        } finally {
            engine.lock().unlock();
        }
        pd.windowClosed(this);
    }
}
