package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.SharedReceiveQueueVerbs;
import dev.verbs4j.ibverbs.binding.ibv_srq;
import dev.verbs4j.ibverbs.binding.ibv_srq_attr;
import dev.verbs4j.ibverbs.binding.ibv_srq_init_attr;
import dev.verbs4j.spi.Resource;

/** A shared receive queue ({@code struct ibv_srq}). */
final class IbverbsSrq extends Resource implements SharedReceiveQueue {
    final IbverbsPd pd;
    final ibv_srq handle;
    private volatile int maxWr;
    private final int maxSge;
    private final ReceivePoster receiver;
    private final ibv_srq_attr attr = new ibv_srq_attr(); // guarded by this

    IbverbsSrq(IbverbsPd pd, ibv_srq handle, int maxWr, int maxSge) {
        super("shared receive queue", pd);
        this.pd = pd;
        this.handle = handle;
        this.maxWr = maxWr;
        this.maxSge = maxSge;
        this.receiver = new ReceivePoster(maxSge);
    }

    /**
     * {@code ibv_create_srq}, then {@code ibv_modify_srq} to arm a non-zero limit: the limit
     * event is armed by a modify, so the creation does not ask for it.
     */
    static IbverbsSrq create(IbverbsPd pd, int maxWr, int maxSge, int limit) {
        if (maxWr < 1 || maxSge < 1 || limit < 0) {
            throw new VerbsException(Errno.EINVAL, "SRQ size " + maxWr + "/" + maxSge + " or limit " + limit);
        }
        try (ibv_srq_init_attr init = new ibv_srq_init_attr()) {
            init.attr().max_wr(maxWr).max_sge(maxSge).srq_limit(0);
            ibv_srq srq = NativeErrors.require(SharedReceiveQueueVerbs.ibv_create_srq(pd.handle, init),
                    "ibv_create_srq(" + maxWr + ", " + maxSge + ")");
            IbverbsSrq created = new IbverbsSrq(pd, srq, init.attr().max_wr(), init.attr().max_sge());
            if (limit > 0) {
                try {
                    created.armLimit(limit);
                } catch (VerbsException e) {
                    created.close();
                    throw e;
                }
            }
            return created;
        }
    }

    @Override
    public synchronized void postRecv(ReceiveWorkRequest wr) {
        ensureOpen();
        pd.regions.refuseFreed(wr.sges());
        int rc = SharedReceiveQueueVerbs.ibv_post_srq_recv(handle, receiver.fill(wr), receiver.rejected());
        if (rc != 0) {
            throw NativeErrors.failure(rc < 0 ? -rc : rc, "ibv_post_srq_recv");
        }
    }

    @Override
    public int maxWr() {
        return maxWr;
    }

    @Override
    public int maxSge() {
        return maxSge;
    }

    /** The limit the device holds now ({@code ibv_query_srq}); 0 once the limit event fired. */
    @Override
    public synchronized int limit() {
        ensureOpen();
        attr.zero();
        NativeErrors.check(SharedReceiveQueueVerbs.ibv_query_srq(handle, attr), "ibv_query_srq");
        return attr.srq_limit();
    }

    @Override
    public synchronized void armLimit(int limit) {
        ensureOpen();
        attr.zero();
        attr.srq_limit(limit);
        NativeErrors.check(SharedReceiveQueueVerbs.ibv_modify_srq(handle, attr, IbverbsConstants.IBV_SRQ_LIMIT),
                "ibv_modify_srq(limit " + limit + ")");
    }

    /** Reads back the size the device granted ({@code ibv_query_srq}): it may round up. */
    @Override
    public synchronized void resize(int newMaxWr) {
        ensureOpen();
        if (newMaxWr < 1) {
            throw new VerbsException(Errno.EINVAL, "SRQ size " + newMaxWr);
        }
        attr.zero();
        attr.max_wr(newMaxWr);
        NativeErrors.check(SharedReceiveQueueVerbs.ibv_modify_srq(handle, attr, IbverbsConstants.IBV_SRQ_MAX_WR),
                "ibv_modify_srq(max_wr " + newMaxWr + ")");
        attr.zero();
        NativeErrors.check(SharedReceiveQueueVerbs.ibv_query_srq(handle, attr), "ibv_query_srq");
        maxWr = attr.max_wr();
    }

    @Override
    protected void destroy() {
        NativeErrors.check(SharedReceiveQueueVerbs.ibv_destroy_srq(handle), "ibv_destroy_srq");
        receiver.free();
        attr.close();
    }
}
