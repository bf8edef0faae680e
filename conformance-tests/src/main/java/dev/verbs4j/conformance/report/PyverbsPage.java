package dev.verbs4j.conformance.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The pyverbs reference page: every test of rdma-core's own suite that ran on the kernel
 * device, its outcome there, and the suite's cases that cover the same behaviour with their
 * outcome in every column of the matrix, or the reason the behaviour has no counterpart
 * here; then the tests the device skipped, with pyverbs' reason. Written as Markdown and
 * HTML beside the matrix ({@value #MARKDOWN}, {@value #HTML}). A case's cell says pass,
 * skip, fail or finding (a failure the findings list for that column).
 */
public final class PyverbsPage {
    /** The Markdown page's file name in the report folder. */
    public static final String MARKDOWN = "pyverbs-reference.md";
    /** The HTML page's file name in the report folder. */
    public static final String HTML = "pyverbs-reference.html";

    private final PyverbsReference reference;
    private final PyverbsMapping mapping;
    private final List<RunReport> runs;
    private final Findings findings;
    private final Map<String, Map<String, CaseResult>> byCase = new HashMap<>();

    /**
     * The page for {@code runs}; a failure listed in {@code findings} for its run shows as a finding, as in the matrix.
     *
     * @param reference what pyverbs reported on the kernel device
     * @param mapping which cases cover which pyverbs test
     * @param runs the matrix's columns
     * @param findings the listed findings
     */
    public PyverbsPage(PyverbsReference reference, PyverbsMapping mapping, List<RunReport> runs, Findings findings) {
        this.reference = reference;
        this.mapping = mapping;
        this.findings = findings;
        this.runs = runs.stream().sorted(Comparator.comparing(RunReport::label)).toList();
        for (RunReport run : this.runs) {
            for (CaseResult c : run.cases()) {
                byCase.computeIfAbsent(c.id(), id -> new HashMap<>()).put(run.label(), c);
            }
        }
    }

    /**
     * The tests that ran with no mapping line, and the lines that name a case no run has.
     *
     * @return one message per problem, empty when there is none
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (PyverbsReference.Test t : reference.ran()) {
            Optional<PyverbsMapping.Line> line = mapping.of(t.id());
            if (line.isEmpty()) {
                problems.add("pyverbs test " + t.id() + " ran on " + reference.device() + " but has no line in mapping.tsv");
            } else if (!runs.isEmpty()) {
                for (String id : line.get().caseIds()) {
                    if (!byCase.containsKey(id)) {
                        problems.add("mapping.tsv maps " + t.id() + " to " + id + ", which no conformance report has");
                    }
                }
            }
        }
        return problems;
    }

    /**
     * One line: how many tests ran, and how many are mapped, reasoned and unmapped.
     *
     * @return the line
     */
    public String summaryLine() {
        List<PyverbsReference.Test> ran = reference.ran();
        long mapped = ran.stream().filter(t -> mapping.of(t.id()).map(l -> !l.hasReason()).orElse(false)).count();
        long reasoned = ran.stream().filter(t -> mapping.of(t.id()).map(PyverbsMapping.Line::hasReason).orElse(false)).count();
        long unmapped = ran.size() - mapped - reasoned;
        return String.format("pyverbs on %s: %d tests ran (%d passed, %d failed, %d errors), %d skipped; %d mapped to suite cases, "
                        + "%d with a reason, %d unmapped", reference.device(), ran.size(), reference.count("pass"),
                reference.count("fail"), reference.count("error"), reference.count("skip"), mapped, reasoned, unmapped);
    }

    private String cases(PyverbsMapping.Line line, boolean html) {
        StringBuilder sb = new StringBuilder();
        for (String id : line.caseIds()) {
            sb.append(html ? "<code>" + html(id) + "</code>" : "`" + id + "`");
            Map<String, CaseResult> results = byCase.getOrDefault(id, Map.of());
            TreeSet<String> cells = new TreeSet<>();
            for (RunReport run : runs) {
                CaseResult c = results.get(run.label());
                if (c != null) {
                    cells.add(run.label() + " " + (findings.reason(run, c) != null ? "finding" : c.outcome().word()));
                }
            }
            sb.append(cells.isEmpty() ? " (in no report)" : " (" + String.join(", ", cells) + ")").append("<br>");
        }
        return sb.substring(0, sb.length() - "<br>".length());
    }

    private String target(PyverbsReference.Test t, boolean html) {
        Optional<PyverbsMapping.Line> line = mapping.of(t.id());
        if (line.isEmpty()) {
            return html ? "<b>UNMAPPED</b>" : "**UNMAPPED**";
        }
        if (line.get().hasReason()) {
            String text = "reason: " + line.get().reason();
            return html ? html(text) : md(text);
        }
        return cases(line.get(), html);
    }

    private static String outcome(PyverbsReference.Test t) {
        return t.detail().isEmpty() ? t.outcome() : t.outcome() + ": " + t.detail();
    }

    /**
     * The page as Markdown.
     *
     * @return the document
     */
    public String markdown() {
        StringBuilder sb = new StringBuilder(16384);
        sb.append("# rdma-core's pyverbs tests on ").append(md(reference.device())).append(" and the suite's cases\n\n");
        sb.append("Run ").append(md(reference.startedAt())).append(", ").append(reference.durationMs() / 1000).append(" s. ")
                .append(md(summaryLine())).append(".\n\n");
        List<String> problems = problems();
        problems.forEach(p -> sb.append("- **PROBLEM** ").append(md(p)).append('\n'));
        sb.append(problems.isEmpty() ? "" : "\n").append("| pyverbs test | on ").append(md(reference.device())).append(" | suite cases (outcome per column) or reason |\n|---|---|---|\n");
        for (PyverbsReference.Test t : reference.ran()) {
            sb.append("| `").append(t.id()).append("` | ").append(md(outcome(t))).append(" | ").append(target(t, false)).append(" |\n");
        }
        sb.append("\n## Skipped on ").append(md(reference.device())).append("\n\n| pyverbs test | reason |\n|---|---|\n");
        for (PyverbsReference.Test t : reference.tests()) {
            if (!t.ran()) {
                sb.append("| `").append(t.id()).append("` | ").append(md(t.detail())).append(" |\n");
            }
        }
        return sb.toString();
    }

    /**
     * The page as stand-alone HTML.
     *
     * @return the page
     */
    public String html() {
        StringBuilder sb = new StringBuilder(32768);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pyverbs reference</title>\n")
                .append("<style>body{font-family:sans-serif;font-size:14px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top}th{background:#eee}")
                .append(".pass{background:#d4f7d4}.fail,.error{background:#f9c9c9}.skip{background:#f4f0c8}")
                .append("code{font-size:12px}</style></head><body>\n<h1>rdma-core's pyverbs tests on ")
                .append(html(reference.device())).append(" and the suite's cases</h1>\n<p>Run ").append(html(reference.startedAt()))
                .append(", ").append(reference.durationMs() / 1000).append(" s. ").append(html(summaryLine())).append(".</p>\n");
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            sb.append("<ul>\n");
            problems.forEach(p -> sb.append("<li class=\"fail\"><b>PROBLEM</b> ").append(html(p)).append("</li>\n"));
            sb.append("</ul>\n");
        }
        sb.append("<table><tr><th>pyverbs test</th><th>on ").append(html(reference.device()))
                .append("</th><th>suite cases (outcome per column) or reason</th></tr>\n");
        for (PyverbsReference.Test t : reference.ran()) {
            sb.append("<tr><td><code>").append(html(t.id())).append("</code></td><td class=\"").append(t.outcome()).append("\">")
                    .append(html(outcome(t))).append("</td><td>").append(target(t, true)).append("</td></tr>\n");
        }
        sb.append("</table>\n<h2>Skipped on ").append(html(reference.device())).append("</h2>\n<table><tr><th>pyverbs test</th><th>reason</th></tr>\n");
        for (PyverbsReference.Test t : reference.tests()) {
            if (!t.ran()) {
                sb.append("<tr><td><code>").append(html(t.id())).append("</code></td><td>").append(html(t.detail())).append("</td></tr>\n");
            }
        }
        return sb.append("</table>\n</body></html>\n").toString();
    }

    private static String md(String s) {
        return s.replaceAll("\\s+", " ").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
