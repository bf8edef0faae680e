package dev.verbs4j.conformance.report;

/**
 * One case's result.
 * It has no libibverbs counterpart: it is part of the suite's report.
 *
 * @param id          stable identity across runs: {@code family/Class#method}, e.g. {@code errors/RnrTest#rnrRetryExhausted}
 * @param className   the fully qualified class
 * @param displayName the behaviour in words
 * @param outcome     pass, fail or skip
 * @param detail      for a failure the observed status or message; for a skip the reason; else empty
 * @param durationMs  wall time
 */
public record CaseResult(String id, String className, String displayName, Outcome outcome, String detail, long durationMs) {
    /** A result whose null detail becomes empty. */
    public CaseResult {
        detail = detail == null ? "" : detail;
    }

    /**
     * The feature family, the first part of the id ({@code base}, {@code errors}, ...).
     *
     * @return the family
     */
    public String family() {
        int slash = id.indexOf('/');
        return slash < 0 ? "" : id.substring(0, slash);
    }
}
