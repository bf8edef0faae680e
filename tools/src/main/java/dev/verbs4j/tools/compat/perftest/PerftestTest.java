package dev.verbs4j.tools.compat.perftest;

import java.util.Arrays;
import java.util.Locale;

/** The perftest programs this mode stands in for: an operation and a kind of measurement. */
public enum PerftestTest {
    WRITE_BW(Verb.WRITE, false),
    READ_BW(Verb.READ, false),
    SEND_BW(Verb.SEND, false),
    ATOMIC_BW(Verb.ATOMIC, false),
    WRITE_LAT(Verb.WRITE, true),
    READ_LAT(Verb.READ, true),
    SEND_LAT(Verb.SEND, true),
    ATOMIC_LAT(Verb.ATOMIC, true);

    /** perftest's {@code verb}. */
    enum Verb { WRITE, READ, SEND, ATOMIC }

    final Verb verb;
    final boolean latency;

    PerftestTest(Verb verb, boolean latency) {
        this.verb = verb;
        this.latency = latency;
    }

    /** As perftest's programs are named after it: {@code write_bw} for {@code ib_write_bw}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The C program it meets. */
    public String program() {
        return "ib_" + label();
    }

    /** From {@code write_bw} or {@code ib_write_bw}. @throws IllegalArgumentException for another name */
    public static PerftestTest of(String name) {
        String bare = name.startsWith("ib_") ? name.substring(3) : name;
        return Arrays.stream(values()).filter(t -> t.label().equals(bare)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no perftest program " + name + "; one of "
                        + String.join(", ", Arrays.stream(values()).map(PerftestTest::label).toList())));
    }

    /** perftest's default iterations: 5000 for write_bw, 1000 for the others. */
    int defaultIterations() {
        return this == WRITE_BW ? 5000 : 1000;
    }

    /** perftest's default size: 8 for the atomics, 65536 for bandwidth, 2 for latency. */
    int defaultSize() {
        return verb == Verb.ATOMIC ? 8 : latency ? 2 : 65536;
    }
}
