package dev.verbs4j.conformance.report;

/**
 * How a case ended. An assumption that did not hold (a missing capability) is a skip, never a pass.
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public enum Outcome {
    /** The case ran and every assertion held. */
    PASS("pass"),

    /** An assertion failed or the case threw: the report's detail says what was observed. */
    FAIL("fail"),

    /** The case did not run: the device lacks what it needs, and the detail says what. */
    SKIP("skip");


    private final String word;

    Outcome(String word) {
        this.word = word;
    }

    /**
     * The word the JSON report uses.
     *
     * @return {@code pass}, {@code fail} or {@code skip}
     */
    public String word() {
        return word;
    }

    /**
     * The outcome a JSON word names.
     *
     * @param word {@code pass}, {@code fail} or {@code skip}
     * @return the outcome
     * @throws IllegalArgumentException for any other word
     */
    public static Outcome of(String word) {
        for (Outcome o : values()) {
            if (o.word.equals(word)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown outcome '" + word + "'");
    }
}
