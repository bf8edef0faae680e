package dev.verbs4j.conformance.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runs with a kernel device on both sides (provider {@value #KERNEL_PROVIDER}), one column
 * per kernel release and kind of device (rxe, siw), oldest first: the capabilities each kernel's
 * device reported, the cases whose outcome differs between kernels, and each listed finding with
 * the kernels it appears on (first and last). Written beside the matrix as
 * {@code conformance-kernels.md} and {@code .html}. A column is a run of the suite as it is:
 * not connected through the CM ({@code cm-}), not in a container, not on a patched module, not
 * across two hosts ({@code pair-}).
 * Where two runs share a kernel and device kind, the one whose label sorts first is shown.
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public final class KernelView {
    static final String KERNEL_PROVIDER = "ibverbs";
    private static final Pattern VERSION = Pattern.compile("^(\\d+(?:\\.\\d+)*)");

    private final List<RunReport> runs;
    private final Findings findings;

    /**
     * The view of those {@code runs} that have the kernel on both sides and recorded their kernel.
     *
     * @param runs every run of the report folder
     * @param findings the listed findings
     */
    public KernelView(List<RunReport> runs, Findings findings) {
        this.findings = findings;
        Map<String, RunReport> byKernel = new LinkedHashMap<>();
        runs.stream()
                .filter(r -> r.provider().equals(KERNEL_PROVIDER) && r.peerProvider().equals(KERNEL_PROVIDER) && !r.kernel().isEmpty())
                .filter(r -> !r.label().startsWith("cm-") && !r.label().startsWith("pair-") && !r.label().endsWith("-container")
                        && !r.label().endsWith("-patched"))
                .sorted(Comparator.comparing(RunReport::label))
                .forEach(r -> byKernel.putIfAbsent(column(r), r));
        this.runs = byKernel.values().stream().sorted(KernelView::byRelease).toList();
    }

    /**
     * How many kernels the view shows.
     *
     * @return the number of columns
     */
    public int kernels() {
        return runs.size();
    }

    private static int byRelease(RunReport a, RunReport b) {
        int[] x = version(a.kernel());
        int[] y = version(b.kernel());
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (x[i] != y[i]) {
                return Integer.compare(x[i], y[i]);
            }
        }
        if (x.length != y.length) {
            return Integer.compare(x.length, y.length);
        }
        int byKernel = a.kernel().compareTo(b.kernel());
        return byKernel != 0 ? byKernel : deviceKind(a).compareTo(deviceKind(b));
    }

    /** The kind of a run's device: its name without the trailing number ({@code rxe}, {@code siw}). */
    static String deviceKind(RunReport r) {
        return r.device().replaceFirst("\\d+$", "");
    }

    /** A column's name: the kernel release, and the device kind where it is not rxe. */
    static String column(RunReport r) {
        String kind = deviceKind(r);
        return kind.equals("rxe") ? r.kernel() : r.kernel() + " " + kind;
    }

    private static int[] version(String release) {
        Matcher m = VERSION.matcher(release);
        if (!m.find()) {
            return new int[0];
        }
        return java.util.Arrays.stream(m.group(1).split("\\.")).mapToInt(Integer::parseInt).toArray();
    }

    /** The columns: one per kernel. */
    private List<String> kernelHeader(String first) {
        List<String> header = new ArrayList<>(List.of(first));
        runs.forEach(r -> header.add(column(r)));
        return header;
    }

    Table runsTable() {
        Table t = new Table(List.of("kernel", "column", "pass", "fail", "finding", "skip", "suite time"));
        for (RunReport r : runs) {
            long findingCount = findings.count(r);
            t.row(List.of(Cell.of(column(r)), Cell.of(r.label()), Cell.of(String.valueOf(r.count(Outcome.PASS))),
                    Cell.of(String.valueOf(r.count(Outcome.FAIL) - findingCount)), Cell.of(String.valueOf(findingCount)),
                    Cell.of(String.valueOf(r.count(Outcome.SKIP))), Cell.of(String.format("%.1f s", r.durationMs() / 1000.0))));
        }
        return t;
    }

    /** Every capability word some kernel reported, in the order the newest kernel lists them, then the rest. */
    private List<String> capabilityWords() {
        Set<String> words = new LinkedHashSet<>();
        for (int i = runs.size() - 1; i >= 0; i--) {
            words.addAll(runs.get(i).capabilities().local());
        }
        return List.copyOf(words);
    }

    /** Capabilities that some kernels report and some do not. */
    Table capabilitiesTable() {
        Table t = new Table(kernelHeader("capability (device_cap_flags_ex bit, atomic_cap, ODP caps)"));
        for (String word : capabilityWords()) {
            List<Cell> row = new ArrayList<>(List.of(Cell.code(word)));
            runs.forEach(r -> row.add(r.capabilities().local().contains(word) ? new Cell("yes", "pass") : new Cell("–", "none")));
            if (runs.stream().map(r -> r.capabilities().local().contains(word)).distinct().count() > 1) {
                t.row(row);
            }
        }
        return t;
    }

    /** Capabilities every kernel reports, as a sentence. */
    String commonCapabilities() {
        List<String> common = capabilityWords().stream()
                .filter(w -> runs.stream().allMatch(r -> r.capabilities().local().contains(w))).toList();
        return common.isEmpty() ? "No capability is reported by every kernel (or the reports recorded none)."
                : "Every kernel reports: " + String.join(", ", common) + ".";
    }

    private String word(RunReport r, CaseResult c) {
        if (c == null) {
            return "–";
        }
        return findings.reason(r, c) != null ? "finding" : c.outcome().word();
    }

    private static Map<String, CaseResult> index(RunReport run) {
        Map<String, CaseResult> m = new LinkedHashMap<>();
        run.cases().forEach(c -> m.put(c.id(), c));
        return m;
    }

    private Set<String> caseIds() {
        Set<String> ids = new LinkedHashSet<>();
        runs.forEach(r -> r.cases().forEach(c -> ids.add(c.id())));
        return ids;
    }

    /** Cases whose outcome is not the same on every kernel; a cell's title is the detail. */
    Table differingCases() {
        Table t = new Table(kernelHeader("case"));
        List<Map<String, CaseResult>> indexed = runs.stream().map(KernelView::index).toList();
        for (String id : caseIds()) {
            List<String> words = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                words.add(word(runs.get(i), indexed.get(i).get(id)));
            }
            if (words.stream().distinct().count() < 2) {
                continue;
            }
            List<Cell> row = new ArrayList<>(List.of(Cell.code(id)));
            for (int i = 0; i < runs.size(); i++) {
                CaseResult c = indexed.get(i).get(id);
                row.add(new Cell(words.get(i).equals("fail") ? "FAIL" : words.get(i), words.get(i), c == null ? "" : c.detail()));
            }
            t.row(row);
        }
        return t;
    }

    /** How many cases have one outcome on every kernel, by that outcome. */
    String sameEverywhere() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        List<Map<String, CaseResult>> indexed = runs.stream().map(KernelView::index).toList();
        for (String id : caseIds()) {
            Set<String> words = new LinkedHashSet<>();
            for (int i = 0; i < runs.size(); i++) {
                words.add(word(runs.get(i), indexed.get(i).get(id)));
            }
            if (words.size() == 1) {
                counts.merge(words.iterator().next(), 1, Integer::sum);
            }
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((w, n) -> parts.add(n + " " + w));
        return parts.isEmpty() ? "no case has the same outcome on every kernel"
                : "same outcome on every kernel: " + String.join(", ", parts);
    }

    /**
     * Each listed finding with the kernels it appears on: one row per reason and set of kernels,
     * naming the cases. The reason is shortened to its first clause (up to the first colon);
     * the HTML cell's title has it whole.
     */
    Table findingsTable() {
        Table t = new Table(List.of("cases", "what the kernel does", "kernels", "first", "last"));
        Map<String, List<String>> kernelsByCase = new LinkedHashMap<>();
        Map<String, String> reasonByCase = new LinkedHashMap<>();
        for (RunReport r : runs) {
            for (CaseResult c : r.cases()) {
                String reason = findings.reason(r, c);
                if (reason != null) {
                    String key = c.id() + "\u0000" + reason;
                    kernelsByCase.computeIfAbsent(key, k -> new ArrayList<>()).add(column(r));
                    reasonByCase.put(key, reason);
                }
            }
        }
        Map<String, List<String>> casesByRow = new LinkedHashMap<>();
        Map<String, List<String>> kernelsByRow = new LinkedHashMap<>();
        kernelsByCase.forEach((key, kernels) -> {
            String row = reasonByCase.get(key) + "\u0000" + kernels;
            casesByRow.computeIfAbsent(row, k -> new ArrayList<>()).add(key.substring(0, key.indexOf('\u0000')));
            kernelsByRow.put(row, kernels);
        });
        casesByRow.forEach((row, cases) -> {
            String reason = row.substring(0, row.indexOf('\u0000'));
            List<String> kernels = kernelsByRow.get(row);
            t.row(List.of(new Cell(String.join(", ", cases), "code", ""), new Cell(firstClause(reason), "", reason),
                    Cell.of(onKernels(kernels)),
                    Cell.of(kernels.getFirst()), Cell.of(kernels.getLast())));
        });
        return t;
    }

    /** "all 7", "6 of 7" for a run of neighbouring columns, else the releases. */
    private String onKernels(List<String> kernels) {
        List<String> all = runs.stream().map(KernelView::column).toList();
        int first = all.indexOf(kernels.getFirst());
        boolean neighbours = all.subList(first, Math.min(all.size(), first + kernels.size())).equals(kernels);
        if (kernels.size() == all.size()) {
            return "all " + all.size();
        }
        return neighbours ? kernels.size() + " of " + all.size() : String.join(", ", kernels);
    }

    private static String firstClause(String reason) {
        int colon = reason.indexOf(": ");
        return colon < 0 ? reason : reason.substring(0, colon);
    }

    /**
     * The view as a Markdown document.
     *
     * @return the document
     */
    public String markdown() {
        StringBuilder sb = new StringBuilder(8192).append("# verbs4j conformance by kernel\n\n")
                .append(stamp()).append("\n\n");
        if (runs.isEmpty()) {
            return sb.append("No run with the kernel's device on both sides recorded its kernel.\n").toString();
        }
        sb.append("The suite with the ibverbs provider on both sides, one column per kernel release.\n\n");
        sb.append(runsTable().markdown()).append("\n## Capabilities that differ between kernels\n\n")
                .append(capabilitiesTable().markdown()).append('\n').append(commonCapabilities()).append('\n')
                .append("\n## Cases whose outcome differs between kernels\n\n").append(differingCases().markdown())
                .append('\n').append(sameEverywhere()).append(".\n")
                .append("\n## Findings by kernel\n\n").append(findingsTable().markdown());
        return sb.toString();
    }

    /**
     * The view as a stand-alone HTML page.
     *
     * @return the page
     */
    public String html() {
        StringBuilder sb = new StringBuilder(16384);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>verbs4j conformance by kernel</title>\n")
                .append("<style>body{font-family:sans-serif;font-size:14px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top}th{background:#eee}")
                .append(".pass{background:#d4f7d4}.fail{background:#f9c9c9}.skip{background:#f4f0c8}")
                .append(".finding{background:#cfe3f7}.none{color:#999}code{font-size:12px}</style></head><body>\n")
                .append("<h1>verbs4j conformance by kernel</h1>\n");
        if (runs.isEmpty()) {
            return sb.append("<p>No run with the kernel's device on both sides recorded its kernel.</p></body></html>\n").toString();
        }
        sb.append("<p>The suite with the ibverbs provider on both sides, one column per kernel release.</p>\n")
                .append(runsTable().html()).append("<h2>Capabilities that differ between kernels</h2>\n")
                .append(capabilitiesTable().html()).append("<p>").append(Table.escape(commonCapabilities())).append("</p>\n")
                .append("<h2>Cases whose outcome differs between kernels</h2>\n").append(differingCases().html())
                .append("<p>").append(Table.escape(sameEverywhere())).append(".</p>\n")
                .append("<h2>Findings by kernel</h2>\n").append(findingsTable().html());
        return sb.append("</body></html>\n").toString();
    }

    /** A table cell: its text, a CSS class for the HTML page, and a title shown on hover. */
    record Cell(String text, String css, String title) {
        Cell(String text, String css) {
            this(text, css, "");
        }

        static Cell of(String text) {
            return new Cell(text, "", "");
        }

        static Cell code(String text) {
            return new Cell(text, "code", "");
        }
    }

    /** A header and rows, written as Markdown or HTML. */
    static final class Table {
        private final List<String> header;
        private final List<List<Cell>> rows = new ArrayList<>();

        Table(List<String> header) {
            this.header = List.copyOf(header);
        }

        void row(List<Cell> cells) {
            rows.add(List.copyOf(cells));
        }

        List<List<Cell>> rows() {
            return rows;
        }

        String markdown() {
            if (rows.isEmpty()) {
                return "None.\n";
            }
            StringBuilder sb = new StringBuilder("|");
            header.forEach(h -> sb.append(' ').append(md(h)).append(" |"));
            sb.append("\n|");
            header.forEach(h -> sb.append("---|"));
            sb.append('\n');
            for (List<Cell> row : rows) {
                sb.append('|');
                for (Cell c : row) {
                    String text = md(c.text());
                    sb.append(' ').append(c.css().equals("code") ? "`" + text + "`" : c.css().equals("fail") ? "**" + text + "**" : text).append(" |");
                }
                sb.append('\n');
            }
            return sb.toString();
        }

        String html() {
            if (rows.isEmpty()) {
                return "<p>None.</p>\n";
            }
            StringBuilder sb = new StringBuilder("<table><tr>");
            header.forEach(h -> sb.append("<th>").append(escape(h)).append("</th>"));
            sb.append("</tr>\n");
            for (List<Cell> row : rows) {
                sb.append("<tr>");
                for (Cell c : row) {
                    String text = c.css().equals("code") ? "<code>" + escape(c.text()) + "</code>" : escape(c.text());
                    sb.append("<td").append(c.css().isEmpty() || c.css().equals("code") ? "" : " class=\"" + c.css() + "\"")
                            .append(c.title().isEmpty() ? "" : " title=\"" + escape(c.title()) + "\"").append('>').append(text).append("</td>");
                }
                sb.append("</tr>\n");
            }
            return sb.append("</table>\n").toString();
        }

        private static String md(String s) {
            return s.replaceAll("\\s+", " ").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
        }

        static String escape(String s) {
            return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
        }
    }

    /**
     * The stamp line scripts/docs-check.py reads where docs/kernel-findings.md copies these
     * tables: the commit the working directory is at ({@code unknown} outside a git checkout),
     * the date, and the sources whose changes make the tables stale.
     */
    private static String stamp() {
        String commit = "unknown";
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes()).trim();
            if (git.waitFor(5, java.util.concurrent.TimeUnit.SECONDS) && git.exitValue() == 0 && out.matches("[0-9a-f]{7,40}")) {
                commit = out;
            }
        } catch (java.io.IOException e) {
            // not a checkout: the commit stays unknown
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "<!-- generated: the by-kernel view, by ConformanceMain --merge at " + commit + " on " + java.time.LocalDate.now()
                + "; sources: conformance-tests/findings/ibverbs-rxe.tsv conformance-tests/src/main/java/dev/verbs4j/conformance -->";
    }
}
