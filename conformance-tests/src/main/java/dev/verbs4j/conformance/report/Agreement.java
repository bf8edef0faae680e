package dev.verbs4j.conformance.report;

/**
 * How the columns that ran a case compare: the same outcome everywhere, differences that are
 * all listed {@link Findings}, or a failure nothing explains. A skip did not run the case and
 * does not count.
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public enum Agreement {
    /** Every column that ran the case passed. */
    AGREE("agree"),
    /** Some column failed, and every failure is a listed finding for its column. */
    EXPLAINED("explained"),
    /** Some column failed with no finding listed for it, whatever the others saw. */
    DISAGREE("DISAGREE");

    private final String word;

    Agreement(String word) {
        this.word = word;
    }

    /**
     * The word the matrix shows.
     *
     * @return {@code agree}, {@code explained} or {@code DISAGREE}
     */
    public String word() {
        return word;
    }

    /** The agreement of columns of which some failed unexplained, some failed with a finding. */
    static Agreement of(boolean unexplainedFailure, boolean finding) {
        return unexplainedFailure ? DISAGREE : finding ? EXPLAINED : AGREE;
    }
}
