package dev.verbs4j.softroce.engine;

import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

/**
 * The entries of a completion queue: the engine appends, application threads poll. Each
 * slot is a preallocated {@link WorkCompletion}; polling copies into the caller's. When a
 * completion arrives at a full ring the ring is overflowed: it keeps what it has and
 * refuses more, as a CQ in error does.
 */
public final class CompletionRing {
    private final WorkCompletion[] slots;
    private final int capacity;
    private long head;
    private long tail;
    private boolean overflowed;
    private volatile boolean armed;
    private boolean solicitedOnly;
    private final Runnable onEvent;

    /** @param onEvent called (from the engine thread) when an armed ring gets a matching completion */
    public CompletionRing(int capacity, Runnable onEvent) {
        this.slots = new WorkCompletion[capacity];
        this.capacity = capacity;
        this.onEvent = onEvent;
        for (int i = 0; i < capacity; i++) {
            slots[i] = new WorkCompletion();
        }
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Appends a completion.
     *
     * @param solicited whether it is solicited (a receive of a solicited message, or any error)
     * @return false when the ring is full (overflow)
     */
    public boolean push(long wrId, WcStatus status, WcOpcode opcode, int byteLength, int qpNum, int srcQp, int flags,
                        int immOrRkey, boolean solicited) {
        boolean fire;
        synchronized (this) {
            if (overflowed || tail - head >= capacity) {
                overflowed = true;
                return false;
            }
            slots[(int) (tail % capacity)].set(wrId, status, opcode, byteLength, qpNum, srcQp, flags, immOrRkey);
            tail++;
            fire = armed && (!solicitedOnly || solicited || status != WcStatus.SUCCESS);
            if (fire) {
                armed = false;
            }
        }
        if (fire && onEvent != null) {
            onEvent.run();
        }
        return true;
    }

    /** Copies up to {@code max} completions into {@code out}; returns how many. */
    public synchronized int poll(WorkCompletion[] out, int max) {
        int n = 0;
        int limit = Math.min(max, out.length);
        while (n < limit && head < tail) {
            out[n++].copyFrom(slots[(int) (head % capacity)]);
            head++;
        }
        return n;
    }

    /** Arms the ring for one event. */
    public synchronized void arm(boolean solicited) {
        armed = true;
        solicitedOnly = solicited;
    }

    /** Whether the ring waits to fire an event (the application is about to block, or blocks, on its channel). */
    public boolean isArmed() {
        return armed;
    }

    public synchronized boolean isOverflowed() {
        return overflowed;
    }

    public synchronized int size() {
        return (int) (tail - head);
    }
}
