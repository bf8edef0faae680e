package dev.verbs4j.softroce.engine;

import dev.verbs4j.Errno;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.ScatterGatherList;
import dev.verbs4j.VerbsException;

/**
 * A receive queue, of one queue pair or shared (SRQ): a ring of scatter lists that
 * application threads fill and the engine consumes in order.
 */
public final class RecvQueue {
    private final long[] wrIds;
    private final ScatterGatherList[] sges;
    private final int mask;
    private final int capacity;
    private final int maxSge;
    private volatile long tail;
    private volatile long head;
    private volatile int limit;
    private boolean limitFired;

    public RecvQueue(int capacity, int maxSge) {
        int size = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        this.wrIds = new long[size];
        this.sges = new ScatterGatherList[size];
        this.mask = size - 1;
        this.capacity = capacity;
        this.maxSge = Math.max(1, maxSge);
        for (int i = 0; i < size; i++) {
            sges[i] = new ScatterGatherList(this.maxSge);
        }
    }

    public int capacity() {
        return capacity;
    }

    public int maxSge() {
        return maxSge;
    }

    /** Appends a copy of {@code wr}. @throws VerbsException {@code ENOMEM} when full, {@code EINVAL} for too many entries */
    public synchronized void post(ReceiveWorkRequest wr) {
        if (wr.sges().count() > maxSge) {
            throw new VerbsException(Errno.EINVAL, "receive has " + wr.sges().count() + " entries, max is " + maxSge);
        }
        long t = tail;
        if (t - head >= capacity) {
            throw new VerbsException(Errno.ENOMEM, "receive queue full (" + capacity + " receives posted)");
        }
        int i = (int) (t & mask);
        wrIds[i] = wr.wrId();
        sges[i].copyFrom(wr.sges());
        tail = t + 1;
    }

    /** Whether a receive is posted. */
    boolean isEmpty() {
        return head == tail;
    }

    int count() {
        return (int) (tail - head);
    }

    long headWrId() {
        return wrIds[(int) (head & mask)];
    }

    ScatterGatherList headSges() {
        return sges[(int) (head & mask)];
    }

    void advance() {
        head = head + 1;
    }

    synchronized void clear() {
        head = tail;
    }

    public int limit() {
        return limit;
    }

    /** Arms the SRQ limit event. */
    public void armLimit(int newLimit) {
        if (newLimit < 0 || newLimit > capacity) {
            throw new VerbsException(Errno.EINVAL, "SRQ limit " + newLimit + " outside 0.." + capacity);
        }
        limit = newLimit;
        limitFired = false;
    }

    /** True once when the count falls below an armed limit (IBTA 10.2.9.2). */
    boolean limitCrossed() {
        int l = limit;
        if (l > 0 && !limitFired && count() < l) {
            limitFired = true;
            limit = 0;
            return true;
        }
        return false;
    }
}
