package dev.verbs4j.conformance.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The objects of one kind the fuzzer made: the live ones, up to a cap, and the last few it
 * closed, which it keeps calling to check that a closed object refuses.
 */
final class Pool<T> {
    private static final int CLOSED_KEPT = 8;

    private final String kind;
    private final int cap;
    private final List<T> live = new ArrayList<>();
    private final List<T> closed = new ArrayList<>();

    Pool(String kind, int cap) {
        this.kind = kind;
        this.cap = cap;
    }

    String kind() {
        return kind;
    }

    boolean full() {
        return live.size() >= cap;
    }

    List<T> live() {
        return live;
    }

    void add(T object) {
        live.add(object);
    }

    /** Moves a live object to the closed ones. */
    void closed(T object) {
        if (live.remove(object)) {
            closed.add(object);
            if (closed.size() > CLOSED_KEPT) {
                closed.removeFirst();
            }
        }
    }

    /** A live object, or null when there is none. */
    T pickLive(Random random) {
        return live.isEmpty() ? null : live.get(random.nextInt(live.size()));
    }

    /** Mostly a live object; one time in eight a closed one (or null when there is neither). */
    T pick(Random random) {
        if (!closed.isEmpty() && (live.isEmpty() || random.nextInt(8) == 0)) {
            return closed.get(random.nextInt(closed.size()));
        }
        return pickLive(random);
    }
}
