package dev.verbs4j.softroce.engine;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;

import java.util.function.LongSupplier;

/**
 * The entries of a completion queue: the engine appends, application threads poll. Each
 * slot is a preallocated {@link WorkCompletion}; polling copies into the caller's. When a
 * completion arrives at a full ring the ring is overflowed: it keeps what it has and
 * refuses more, as a CQ in error does. A ring made with a clock stamps each completion
 * with the clock's reading as it is appended.
 */
public final class CompletionRing {
    private WorkCompletion[] slots;
    private long[] stamps;
    private int capacity;
    private final LongSupplier clock;
    private long head;
    private long tail;
    private boolean overflowed;
    private volatile boolean armed;
    private boolean solicitedOnly;
    private final Runnable onEvent;

    /** @param onEvent called (from the engine thread) when an armed ring gets a matching completion */
    public CompletionRing(int capacity, Runnable onEvent) {
        this(capacity, onEvent, null);
    }

    /**
     * @param onEvent called (from the engine thread) when an armed ring gets a matching completion
     * @param clock   stamps each completion as it is appended, or null for no stamps
     */
    public CompletionRing(int capacity, Runnable onEvent, LongSupplier clock) {
        this.slots = new WorkCompletion[capacity];
        this.stamps = clock == null ? null : new long[capacity];
        this.capacity = capacity;
        this.onEvent = onEvent;
        this.clock = clock;
        for (int i = 0; i < capacity; i++) {
            slots[i] = new WorkCompletion();
        }
    }

    public synchronized int capacity() {
        return capacity;
    }

    /**
     * Changes how many completions the ring holds, keeping those it holds.
     *
     * @throws VerbsException {@code EINVAL} when it holds more than {@code newCapacity}
     */
    public synchronized void resize(int newCapacity) {
        long held = tail - head;
        if (newCapacity < held) {
            throw new VerbsException(Errno.EINVAL, "queue of " + newCapacity + " cannot hold the " + held + " completions it has");
        }
        WorkCompletion[] grown = new WorkCompletion[newCapacity];
        long[] grownStamps = stamps == null ? null : new long[newCapacity];
        for (int i = 0; i < held; i++) {
            int from = (int) ((head + i) % capacity);
            grown[i] = slots[from];
            if (grownStamps != null) {
                grownStamps[i] = stamps[from];
            }
        }
        for (int i = (int) held; i < newCapacity; i++) {
            grown[i] = new WorkCompletion();
        }
        slots = grown;
        stamps = grownStamps;
        capacity = newCapacity;
        head = 0;
        tail = held;
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
            int slot = (int) (tail % capacity);
            slots[slot].set(wrId, status, opcode, byteLength, qpNum, srcQp, flags, immOrRkey);
            if (stamps != null) {
                stamps[slot] = clock.getAsLong();
            }
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

    /**
     * The oldest completion, left in the ring, or null when there is none. It stays as it is
     * until {@link #consume()}: the engine writes only free slots.
     */
    public synchronized WorkCompletion oldest() {
        return head < tail ? slots[(int) (head % capacity)] : null;
    }

    /** The clock's reading when the oldest completion was appended; 0 for a ring without a clock. */
    public synchronized long oldestStamp() {
        return stamps == null || head == tail ? 0 : stamps[(int) (head % capacity)];
    }

    /** Removes the oldest completion. */
    public synchronized void consume() {
        if (head < tail) {
            head++;
        }
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
