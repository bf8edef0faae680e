package dev.verbs4j.conformance.report;

/** How a case ended. An assumption that did not hold (a missing capability) is a skip, never a pass. */
public enum Outcome {
    PASS("pass"), FAIL("fail"), SKIP("skip");

    private final String word;

    Outcome(String word) {
        this.word = word;
    }

    /** The word the JSON report uses. */
    public String word() {
        return word;
    }

    /** The outcome a JSON word names. @throws IllegalArgumentException for any other word */
    public static Outcome of(String word) {
        for (Outcome o : values()) {
            if (o.word.equals(word)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown outcome '" + word + "'");
    }
}
