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
    /**
     * The slots: replaced whole when the queue grows past them. The engine reads the head
     * slot of whichever it sees; a resize moves the posted receives' entries, objects
     * included, so both hold the same receive at the same position.
     */
    private volatile Slots slots;
    private volatile int capacity;
    private final int maxSge;
    private volatile long tail;
    private volatile long head;
    private volatile int limit;
    private boolean limitFired;

    public RecvQueue(int capacity, int maxSge) {
        this.maxSge = Math.max(1, maxSge);
        this.capacity = capacity;
        this.slots = new Slots(capacity, this.maxSge);
    }

    private static final class Slots {
        final long[] wrIds;
        final ScatterGatherList[] sges;
        final int mask;

        Slots(int capacity, int maxSge) {
            int size = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
            wrIds = new long[size];
            sges = new ScatterGatherList[size];
            mask = size - 1;
            for (int i = 0; i < size; i++) {
                sges[i] = new ScatterGatherList(maxSge);
            }
        }
    }

    /**
     * Changes how many receives the queue holds, keeping those posted.
     *
     * @throws VerbsException {@code EINVAL} when fewer than are posted, or below the armed limit
     */
    public synchronized void resize(int newCapacity) {
        long h = head;
        long t = tail;
        if (newCapacity < t - h) {
            throw new VerbsException(Errno.EINVAL, "queue of " + newCapacity + " cannot hold the " + (t - h) + " receives posted");
        }
        if (newCapacity < limit) {
            throw new VerbsException(Errno.EINVAL, "queue of " + newCapacity + " is below its armed limit " + limit);
        }
        Slots old = slots;
        if (newCapacity > old.wrIds.length) {
            Slots grown = new Slots(newCapacity, maxSge);
            for (long pos = h; pos < t; pos++) {
                int from = (int) (pos & old.mask);
                int to = (int) (pos & grown.mask);
                grown.wrIds[to] = old.wrIds[from];
                grown.sges[to] = old.sges[from];
            }
            slots = grown;
        }
        capacity = newCapacity;
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
        Slots s = slots;
        int i = (int) (t & s.mask);
        s.wrIds[i] = wr.wrId();
        s.sges[i].copyFrom(wr.sges());
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
        Slots s = slots;
        return s.wrIds[(int) (head & s.mask)];
    }

    ScatterGatherList headSges() {
        Slots s = slots;
        return s.sges[(int) (head & s.mask)];
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
