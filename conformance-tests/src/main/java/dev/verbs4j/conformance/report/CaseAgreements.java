package dev.verbs4j.conformance.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link Agreement} of every case that ran (passed or failed, findings included) on two
 * or more columns of the matrix. A case that ran on one column has nothing to agree with and
 * is not counted: its failures are judged by the run that made them.
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public final class CaseAgreements {
    private final Map<String, Agreement> byCase = new LinkedHashMap<>();
    private final Map<String, List<String>> unexplainedColumns = new LinkedHashMap<>();

    /** What the columns that ran one case saw. */
    private static final class Tally {
        int columns;
        boolean finding;
        final List<String> failedUnexplained = new ArrayList<>();
    }

    /**
     * The agreements over {@code runs}, with failures listed in {@code findings} counted as explained.
     *
     * @param runs the matrix's columns
     * @param findings the listed findings
     */
    public CaseAgreements(List<RunReport> runs, Findings findings) {
        Map<String, Tally> tallies = new LinkedHashMap<>();
        for (RunReport run : runs) {
            for (CaseResult c : run.cases()) {
                if (c.outcome() == Outcome.SKIP) {
                    continue;
                }
                Tally tally = tallies.computeIfAbsent(c.id(), id -> new Tally());
                tally.columns++;
                if (findings.reason(run, c) != null) {
                    tally.finding = true;
                } else if (c.outcome() == Outcome.FAIL) {
                    tally.failedUnexplained.add(run.label());
                }
            }
        }
        tallies.forEach((id, tally) -> {
            if (tally.columns >= 2) {
                byCase.put(id, Agreement.of(!tally.failedUnexplained.isEmpty(), tally.finding));
                if (!tally.failedUnexplained.isEmpty()) {
                    unexplainedColumns.put(id, List.copyOf(tally.failedUnexplained));
                }
            }
        });
    }

    /**
     * The case's agreement; empty when fewer than two columns ran it.
     *
     * @param caseId the case's id, {@code family/Class#method}
     * @return the agreement
     */
    public Optional<Agreement> of(String caseId) {
        return Optional.ofNullable(byCase.get(caseId));
    }

    /**
     * How many cases ran on two or more columns.
     *
     * @return the count
     */
    public int compared() {
        return byCase.size();
    }

    /**
     * How many compared cases have {@code agreement}.
     *
     * @param agreement the agreement
     * @return the count
     */
    public long count(Agreement agreement) {
        return byCase.values().stream().filter(a -> a == agreement).count();
    }

    /**
     * Each case that {@link Agreement#DISAGREE disagrees}, with the columns where it failed unexplained.
     *
     * @return case id to column labels, in case order
     */
    public Map<String, List<String>> disagreements() {
        return Collections.unmodifiableMap(unexplainedColumns);
    }

    /**
     * One line: {@code agreement: N cases ran on 2+ columns: A agree, E explained by findings, U unexplained disagreements}.
     *
     * @return the line
     */
    public String summaryLine() {
        return "agreement: " + compared() + " cases ran on 2+ columns: " + count(Agreement.AGREE) + " agree, "
                + count(Agreement.EXPLAINED) + " explained by findings, " + count(Agreement.DISAGREE) + " unexplained disagreements";
    }
}
