package dev.verbs4j.softroce.engine;

import dev.verbs4j.Errno;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;

import java.lang.foreign.Arena;

/**
 * The send queue: a ring of preallocated {@link Wqe} slots. Application threads append
 * under the queue's lock and publish with a volatile tail; the engine thread reads slots
 * up to the tail and frees them by moving the head. Three cursors, all counting posts:
 * {@code head} (oldest not yet reported), {@code next} (next the requester starts) and
 * {@code tail} (next free).
 */
final class SendQueue {
    private final Wqe[] slots;
    private final int mask;
    private final int capacity;
    private volatile long tail;
    private volatile long head;
    /** Engine-only: the next slot the requester works on. */
    long next;

    SendQueue(int capacity, int maxSge, int maxInline, Arena arena) {
        int size = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        this.slots = new Wqe[size];
        this.mask = size - 1;
        this.capacity = capacity;
        for (int i = 0; i < size; i++) {
            slots[i] = new Wqe(maxSge, maxInline, arena);
        }
    }

    int capacity() {
        return capacity;
    }

    /** Appends a copy of {@code wr}. @throws VerbsException {@code ENOMEM} when full */
    synchronized void post(SendWorkRequest wr, InlineSource inline) {
        long t = tail;
        if (t - head >= capacity) {
            throw new VerbsException(Errno.ENOMEM, "send queue full (" + capacity + " requests outstanding)");
        }
        slots[(int) (t & mask)].copyFrom(wr, inline);
        tail = t + 1;
    }

    long tail() {
        return tail;
    }

    /** How many more requests fit now (more may, once the engine frees slots). */
    int room() {
        return (int) (capacity - (tail - head));
    }

    long head() {
        return head;
    }

    Wqe at(long position) {
        return slots[(int) (position & mask)];
    }

    /** Frees the oldest slot after it was reported. */
    void advanceHead() {
        head = head + 1;
    }

    /** Drops everything (modify to RESET). */
    synchronized void clear() {
        head = tail;
        next = tail;
    }

    /** Whether the request at {@link #next} is started and partly sent (its first packets out, the rest not yet). */
    boolean nextPartlySent() {
        return next < tail && at(next).state == Wqe.SENDING;
    }
}
