package dev.verbs4j.softroce;

import dev.verbs4j.Errno;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SharedReceiveQueue;
import dev.verbs4j.VerbsException;
import dev.verbs4j.softroce.engine.RecvQueue;
import dev.verbs4j.spi.Resource;

/** A shared receive queue. */
final class SoftSrq extends Resource implements SharedReceiveQueue {
    final SoftPd pd;
    final RecvQueue queue;

    SoftSrq(SoftPd pd, int maxWr, int maxSge, int limit) {
        super("shared receive queue", pd);
        this.pd = pd;
        this.queue = new RecvQueue(maxWr, maxSge);
        if (limit > 0) {
            queue.armLimit(limit);
        }
    }

    @Override
    public void postRecv(ReceiveWorkRequest wr) {
        ensureOpen();
        FreedMemory.refuse(pd.context.engine, pd, wr.sges());
        queue.post(wr);
    }

    @Override
    public int maxWr() {
        return queue.capacity();
    }

    @Override
    public int maxSge() {
        return queue.maxSge();
    }

    @Override
    public int limit() {
        ensureOpen();
        return queue.limit();
    }

    @Override
    public void armLimit(int limit) {
        ensureOpen();
        queue.armLimit(limit);
    }

    @Override
    public void resize(int maxWr) {
        ensureOpen();
        int max = pd.context.device.config().limits().maxSrqWr();
        if (maxWr < 1 || maxWr > max) {
            throw new VerbsException(Errno.EINVAL, "SRQ size " + maxWr + " outside 1.." + max);
        }
        queue.resize(maxWr);
    }

    @Override
    protected void destroy() {
    }
}
