package dev.verbs4j.conformance.fuzz;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WorkCompletion;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the calls of one run ended in, counted by outcome, and the judgement of each: a
 * {@link VerbsException} (any errno), or {@link IllegalArgumentException},
 * {@link NullPointerException} or {@link IllegalStateException} for plain Java misuse, is an
 * allowed answer; anything else is a failure. A device's fatal event, which a soft engine
 * raises when it faults, is one too. One run per instance, on one thread.
 */
final class Outcomes {
    /** Thrown for what must never happen; the fuzzer stops at it. */
    static final class Violation extends RuntimeException {
        Violation(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Map<String, Map<String, Integer>> counts = new TreeMap<>();
    private final Map<String, Integer> statuses = new TreeMap<>();
    private int calls;

    void succeeded(String action) {
        calls++;
        count(action, "success");
    }

    private void count(String action, String outcome) {
        counts.computeIfAbsent(action, k -> new TreeMap<>()).merge(outcome, 1, Integer::sum);
    }

    /** Counts an allowed failure of {@code action}; @throws Violation for any other */
    void failed(String action, Throwable t) {
        calls++;
        String outcome = switch (t) {
            case VerbsException e -> String.valueOf(e.error());
            case IllegalArgumentException e -> "IAE";
            case NullPointerException e -> "NPE";
            case IllegalStateException e -> "ISE";
            case Violation v -> throw v;
            default -> throw new Violation("a call threw what the API does not allow: " + t, t);
        };
        count(action, outcome);
    }

    void completion(WorkCompletion wc) {
        statuses.merge(String.valueOf(wc.status()), 1, Integer::sum);
    }

    /** @throws Violation for a device's fatal event */
    void asyncEvent(AsyncEvent event) {
        if (event.type() == AsyncEventType.DEVICE_FATAL) {
            throw new Violation("the device reported a fatal error (" + event + "): an engine faulted", null);
        }
        statuses.merge("event " + event.type(), 1, Integer::sum);
    }

    int calls() {
        return calls;
    }

    String summary() {
        StringBuilder out = new StringBuilder("outcomes by call (ISE, IAE, NPE: IllegalState-, IllegalArgument-, NullPointerException; else errno):");
        counts.forEach((k, v) -> out.append("\n  ").append(k).append(": ").append(v));
        out.append("\ncompletions and events:");
        statuses.forEach((k, v) -> out.append("\n  ").append(v).append(" ").append(k));
        return out.toString();
    }
}
