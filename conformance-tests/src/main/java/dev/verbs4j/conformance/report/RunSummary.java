package dev.verbs4j.conformance.report;

import java.nio.file.Path;
import java.util.List;

/** The compact summary printed when a run ends: counts, then every failing and skipped case with its reason. */
final class RunSummary {
    private RunSummary() {
    }

    static String format(RunReport run, List<Path> files, List<String> warnings) {
        StringBuilder sb = new StringBuilder(2048);
        sb.append("\n==== verbs4j conformance ").append(run.label()).append(" (").append(run.pairDescription()).append("): ")
                .append(run.cases().size()).append(" cases, ").append(run.count(Outcome.PASS)).append(" passed, ")
                .append(run.count(Outcome.FAIL)).append(" failed, ").append(run.count(Outcome.SKIP)).append(" skipped in ")
                .append(String.format("%.1f s", run.durationMs() / 1000.0))
                .append(run.excluded().isEmpty() ? "" : ", left out: " + String.join(", ", run.excluded())).append(" ====\n");
        for (Outcome outcome : List.of(Outcome.FAIL, Outcome.SKIP)) {
            for (CaseResult c : run.cases()) {
                if (c.outcome() == outcome) {
                    sb.append(outcome == Outcome.FAIL ? "FAILED  " : "SKIPPED ").append(c.id()).append(": ")
                            .append(c.detail().replaceAll("\\s+", " ").trim()).append('\n');
                }
            }
        }
        for (String w : warnings) {
            sb.append("WARNING ").append(w).append('\n');
        }
        for (Path f : files) {
            sb.append("report: ").append(f.toAbsolutePath().normalize()).append('\n');
        }
        return sb.toString();
    }
}
