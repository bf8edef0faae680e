package dev.verbs4j.conformance.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The provider-by-case matrix: one row per case, one column per run (pair of provider
 * and device), as Markdown and as HTML. A failing cell shows what was observed, so a
 * difference between providers reads straight off the table. A failure listed in the
 * {@link Findings} for its run shows as a finding, with what the device does instead. Each
 * row also says whether the columns that ran the case agree ({@link CaseAgreements}), and a
 * summary line counts them.
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public final class MatrixWriter {
    private static final List<String> FAMILY_ORDER = List.of("base", "errors", "misuse", "cm", "flush", "atomicwrite", "memwindow", "odp");
    private static final int CELL_DETAIL_CHARS = 70;

    private final List<RunReport> runs;
    private final Map<String, CaseResult> rows;
    private final Findings findings;
    private final CaseAgreements agreements;

    /**
     * A matrix of {@code runs}, columns in label order, with no case counted as a finding.
     *
     * @param runs the columns
     */
    public MatrixWriter(List<RunReport> runs) {
        this(runs, Findings.none());
    }

    /**
     * A matrix of {@code runs}, columns in label order; failures listed in {@code findings} show as findings.
     *
     * @param runs the columns
     * @param findings the listed findings
     */
    public MatrixWriter(List<RunReport> runs, Findings findings) {
        this.findings = findings;
        this.runs = runs.stream().sorted(Comparator.comparing(RunReport::label)).toList();
        Map<String, CaseResult> byId = new TreeMap<>(Comparator.comparing(MatrixWriter::familyRank).thenComparing(id -> id));
        for (RunReport run : this.runs) {
            for (CaseResult c : run.cases()) {
                byId.putIfAbsent(c.id(), c);
            }
        }
        this.rows = byId;
        this.agreements = new CaseAgreements(this.runs, findings);
    }

    /**
     * Whether the columns that ran each case agree.
     *
     * @return the agreements of the matrix's cases
     */
    public CaseAgreements agreements() {
        return agreements;
    }

    private String agreementWord(String caseId) {
        return agreements.of(caseId).map(Agreement::word).orElse("not compared");
    }

    private static int familyRank(String id) {
        int slash = id.indexOf('/');
        int rank = FAMILY_ORDER.indexOf(slash < 0 ? id : id.substring(0, slash));
        return rank < 0 ? FAMILY_ORDER.size() : rank;
    }

    private static Map<String, CaseResult> index(RunReport run) {
        Map<String, CaseResult> m = new LinkedHashMap<>();
        for (CaseResult c : run.cases()) {
            m.put(c.id(), c);
        }
        return m;
    }

    /**
     * The matrix as a Markdown document.
     *
     * @return the document
     */
    public String markdown() {
        StringBuilder sb = new StringBuilder(8192);
        sb.append("# verbs4j conformance matrix\n\n");
        sb.append("| run | pair | pass | fail | finding | skip | started |\n|---|---|---|---|---|---|---|\n");
        for (RunReport r : runs) {
            sb.append("| ").append(md(r.label())).append(" | ").append(md(r.pairDescription())).append(" | ")
                    .append(r.count(Outcome.PASS)).append(" | ").append(failures(r)).append(" | ")
                    .append(findings.count(r)).append(" | ").append(r.count(Outcome.SKIP)).append(" | ").append(md(r.startedAt())).append(" |\n");
        }
        sb.append('\n').append(agreements.summaryLine()).append("\n\n| case | agreement |");
        runs.forEach(r -> sb.append(' ').append(md(r.label())).append(" |"));
        sb.append("\n|---|---|");
        runs.forEach(r -> sb.append("---|"));
        sb.append('\n');
        List<Map<String, CaseResult>> indexed = runs.stream().map(MatrixWriter::index).toList();
        for (Map.Entry<String, CaseResult> row : rows.entrySet()) {
            sb.append("| `").append(row.getKey()).append("` ").append(md(row.getValue().displayName())).append(" | ")
                    .append(markdownAgreement(row.getKey())).append(" |");
            for (int i = 0; i < runs.size(); i++) {
                sb.append(' ').append(markdownCell(runs.get(i), indexed.get(i).get(row.getKey()))).append(" |");
            }
            sb.append('\n');
        }
        for (RunReport r : runs) {
            List<CaseResult> notPassed = notPassed(r);
            if (notPassed.isEmpty()) {
                continue;
            }
            sb.append("\n## ").append(md(r.label())).append(": failures, findings and skips\n\n");
            for (CaseResult c : notPassed) {
                sb.append("- **").append(word(r, c)).append("** `").append(c.id()).append("`: ")
                        .append(md(fullDetail(r, c))).append('\n');
            }
        }
        return sb.toString();
    }

    private String markdownAgreement(String caseId) {
        return agreements.of(caseId).orElse(null) == Agreement.DISAGREE ? "**DISAGREE**" : agreementWord(caseId);
    }

    private long failures(RunReport r) {
        return r.count(Outcome.FAIL) - findings.count(r);
    }

    private String word(RunReport r, CaseResult c) {
        return findings.reason(r, c) != null ? "finding" : c.outcome().word();
    }

    private String fullDetail(RunReport r, CaseResult c) {
        String reason = findings.reason(r, c);
        return reason == null ? c.detail() : c.detail() + " (listed finding: " + reason + ")";
    }

    private String markdownCell(RunReport r, CaseResult c) {
        if (c == null) {
            return "–";
        }
        String reason = findings.reason(r, c);
        if (reason != null) {
            return "finding: " + md(shorten(reason));
        }
        return switch (c.outcome()) {
            case PASS -> "pass";
            case SKIP -> "skip";
            case FAIL -> "**FAIL**: " + md(shorten(c.detail()));
        };
    }

    /**
     * The matrix as a stand-alone HTML page; hover a cell for the full detail.
     *
     * @return the page
     */
    public String html() {
        StringBuilder sb = new StringBuilder(16384);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>verbs4j conformance matrix</title>\n")
                .append("<style>body{font-family:sans-serif;font-size:14px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top}th{background:#eee}")
                .append(".pass,.agree{background:#d4f7d4}.fail,.DISAGREE{background:#f9c9c9}.skip{background:#f4f0c8}")
                .append(".finding,.explained{background:#cfe3f7}.none{color:#999}")
                .append("code{font-size:12px}</style></head><body>\n<h1>verbs4j conformance matrix</h1>\n");
        sb.append("<table><tr><th>run</th><th>pair</th><th>pass</th><th>fail</th><th>finding</th><th>skip</th><th>started</th><th>environment</th></tr>\n");
        for (RunReport r : runs) {
            sb.append("<tr><td>").append(html(r.label())).append("</td><td>").append(html(r.pairDescription()))
                    .append("</td><td>").append(r.count(Outcome.PASS)).append("</td><td>").append(failures(r))
                    .append("</td><td>").append(findings.count(r)).append("</td><td>").append(r.count(Outcome.SKIP)).append("</td><td>").append(html(r.startedAt()))
                    .append("</td><td>").append(html(r.environment())).append("</td></tr>\n");
        }
        sb.append("</table>\n<p>").append(html(agreements.summaryLine())).append("</p>\n<h2>Cases</h2>\n<table><tr><th>case</th><th>agreement</th>");
        runs.forEach(r -> sb.append("<th>").append(html(r.label())).append("</th>"));
        sb.append("</tr>\n");
        List<Map<String, CaseResult>> indexed = runs.stream().map(MatrixWriter::index).toList();
        for (Map.Entry<String, CaseResult> row : rows.entrySet()) {
            sb.append("<tr><td><code>").append(html(row.getKey())).append("</code><br>").append(html(row.getValue().displayName()))
                    .append("</td>").append(htmlAgreement(row.getKey()));
            for (int i = 0; i < runs.size(); i++) {
                sb.append(htmlCell(runs.get(i), indexed.get(i).get(row.getKey())));
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
        for (RunReport r : runs) {
            List<CaseResult> notPassed = notPassed(r);
            if (notPassed.isEmpty()) {
                continue;
            }
            sb.append("<h2>").append(html(r.label())).append(": failures, findings and skips</h2>\n<ul>\n");
            for (CaseResult c : notPassed) {
                sb.append("<li class=\"").append(word(r, c)).append("\"><b>").append(word(r, c)).append("</b> <code>")
                        .append(html(c.id())).append("</code>: ").append(html(fullDetail(r, c))).append("</li>\n");
            }
            sb.append("</ul>\n");
        }
        return sb.append("</body></html>\n").toString();
    }

    private String htmlAgreement(String caseId) {
        String css = agreements.of(caseId).map(Agreement::word).orElse("none");
        return "<td class=\"" + css + "\">" + agreementWord(caseId) + "</td>";
    }

    private String htmlCell(RunReport r, CaseResult c) {
        if (c == null) {
            return "<td class=\"none\">not run</td>";
        }
        String reason = findings.reason(r, c);
        String text = reason != null ? "finding: " + html(shorten(reason)) : switch (c.outcome()) {
            case PASS -> "pass";
            case SKIP -> "skip";
            case FAIL -> "FAIL: " + html(shorten(c.detail()));
        };
        return "<td class=\"" + word(r, c) + "\" title=\"" + html(fullDetail(r, c)) + "\">" + text + "</td>";
    }

    private List<CaseResult> notPassed(RunReport r) {
        List<CaseResult> list = new ArrayList<>();
        for (CaseResult c : r.cases()) {
            if (c.outcome() != Outcome.PASS) {
                list.add(c);
            }
        }
        list.sort(Comparator.comparing((CaseResult c) -> c.outcome()).thenComparing(c -> familyRank(c.id())).thenComparing(CaseResult::id));
        return list;
    }

    private static String shorten(String detail) {
        String one = detail.replaceAll("\\s+", " ").trim();
        return one.length() <= CELL_DETAIL_CHARS ? one : one.substring(0, CELL_DETAIL_CHARS - 1) + "…";
    }

    private static String md(String s) {
        return s.replaceAll("\\s+", " ").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String html(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
