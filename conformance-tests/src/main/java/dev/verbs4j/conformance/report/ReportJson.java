package dev.verbs4j.conformance.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a {@link RunReport}, format {@value #FORMAT}. One file per pair,
 * named {@code <label>.json}; files from other machines (a VM with the kernel's rxe, a
 * lab host) can be copied into the same folder and are merged into one matrix. The
 * format, field by field:
 * <pre>
 * {
 *   "format": "verbs4j-conformance-report/1",
 *   "label": "soft-soft",                  // names the file and the matrix column
 *   "provider": "soft", "device": "soft0", // the side that posts the requests
 *   "peerProvider": "soft", "peerDevice": "soft1",
 *   "startedAt": "2026-01-01T12:00:00Z",   // ISO-8601
 *   "durationMs": 12345,
 *   "environment": "Linux 6.18 amd64, Java 25",
 *   "kernel": "6.18.0-1-amd64",             // uname -r of the run's host; "" elsewhere
 *   "capabilities": {                       // what each side's device reported (RunCapabilities)
 *     "local": ["MEM_WINDOW", "FLUSH_GLOBAL", "ATOMIC_HCA", "ODP", "RC_ODP_WRITE", ...],
 *     "remote": [...]},
 *   "excluded": ["access"],                 // families and classes left out (--exclude); [] for the whole suite
 *   "counts": {"pass": 80, "fail": 2, "skip": 11},
 *   "cases": [
 *     {"id": "errors/RnrTest#rnrRetryExhausted",   // family/Class#method: the matrix row
 *      "class": "dev.verbs4j.conformance.errors.RnrTest",
 *      "name": "rnr retry exhausted",              // the behaviour in words
 *      "outcome": "pass" | "fail" | "skip",
 *      "detail": "",                               // failure: what was observed; skip: the reason
 *      "durationMs": 14}
 *   ]
 * }
 * </pre>
 * Readers ignore fields they do not know, so later versions may add fields.
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public final class ReportJson {
    /** The value of a report's {@code format} field. */
    public static final String FORMAT = "verbs4j-conformance-report/1";

    private ReportJson() {
    }

    /**
     * The report as a JSON document.
     *
     * @param r the report
     * @return the JSON text
     */
    public static String write(RunReport r) {
        StringBuilder sb = new StringBuilder(4096);
        sb.append("{\n");
        field(sb, "format", FORMAT);
        field(sb, "label", r.label());
        field(sb, "provider", r.provider());
        field(sb, "device", r.device());
        field(sb, "peerProvider", r.peerProvider());
        field(sb, "peerDevice", r.peerDevice());
        field(sb, "startedAt", r.startedAt());
        sb.append("  \"durationMs\": ").append(r.durationMs()).append(",\n");
        field(sb, "environment", r.environment());
        field(sb, "kernel", r.kernel());
        sb.append("  \"capabilities\": {\"local\": ").append(words(r.capabilities().local()))
                .append(", \"remote\": ").append(words(r.capabilities().remote())).append("},\n");
        sb.append("  \"excluded\": ").append(words(r.excluded())).append(",\n");
        sb.append("  \"counts\": {\"pass\": ").append(r.count(Outcome.PASS)).append(", \"fail\": ").append(r.count(Outcome.FAIL))
                .append(", \"skip\": ").append(r.count(Outcome.SKIP)).append("},\n");
        sb.append("  \"cases\": [");
        for (int i = 0; i < r.cases().size(); i++) {
            CaseResult c = r.cases().get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"id\": ").append(Json.quote(c.id()))
                    .append(", \"class\": ").append(Json.quote(c.className()))
                    .append(", \"name\": ").append(Json.quote(c.displayName()))
                    .append(", \"outcome\": ").append(Json.quote(c.outcome().word()))
                    .append(", \"detail\": ").append(Json.quote(c.detail()))
                    .append(", \"durationMs\": ").append(c.durationMs()).append('}');
        }
        sb.append("\n  ]\n}\n");
        return sb.toString();
    }

    private static String words(List<String> words) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < words.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(Json.quote(words.get(i)));
        }
        return sb.append(']').toString();
    }

    private static void field(StringBuilder sb, String name, String value) {
        sb.append("  ").append(Json.quote(name)).append(": ").append(Json.quote(value)).append(",\n");
    }

    /**
     * Reads a report.
     *
     * @throws IllegalArgumentException when the text is not a report of this format
     * @param text the JSON text
     * @return the report
     */
    public static RunReport read(String text) {
        if (!(Json.parse(text) instanceof Map<?, ?> root)) {
            throw new IllegalArgumentException("a report is a JSON object");
        }
        if (!FORMAT.equals(root.get("format"))) {
            throw new IllegalArgumentException("not a " + FORMAT + " document (format " + root.get("format") + ")");
        }
        List<CaseResult> cases = new ArrayList<>();
        if (root.get("cases") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c) {
                    cases.add(new CaseResult(text(c, "id"), text(c, "class"), text(c, "name"), Outcome.of(text(c, "outcome")),
                            text(c, "detail"), number(c, "durationMs")));
                }
            }
        }
        RunCapabilities capabilities = RunCapabilities.NONE;
        if (root.get("capabilities") instanceof Map<?, ?> sides) {
            capabilities = new RunCapabilities(words(sides.get("local")), words(sides.get("remote")));
        }
        return new RunReport(text(root, "label"), text(root, "provider"), text(root, "device"), text(root, "peerProvider"),
                text(root, "peerDevice"), text(root, "startedAt"), number(root, "durationMs"), text(root, "environment"),
                text(root, "kernel"), capabilities, cases, words(root.get("excluded")));
    }

    private static List<String> words(Object list) {
        List<String> words = new ArrayList<>();
        if (list instanceof List<?> items) {
            items.forEach(item -> words.add(String.valueOf(item)));
        }
        return words;
    }

    private static String text(Map<?, ?> map, String key) {
        Object v = map.get(key);
        return v == null ? "" : v.toString();
    }

    private static long number(Map<?, ?> map, String key) {
        return map.get(key) instanceof Double d ? d.longValue() : 0;
    }

    /**
     * Writes {@code <dir>/<label>.json}.
     *
     * @param dir the report folder, created if needed
     * @param report the report
     * @return the file written
     * @throws IOException when it cannot be written
     */
    public static Path writeFile(Path dir, RunReport report) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(fileName(report.label()));
        Files.writeString(file, write(report), StandardCharsets.UTF_8);
        return file;
    }

    /**
     * Every report in {@code dir}; files that are not reports are skipped with a warning on {@code warnings}.
     *
     * @param dir the report folder
     * @param warnings where skipped files are reported
     * @return the reports, in file name order
     * @throws IOException when the folder cannot be listed
     */
    public static List<RunReport> readAll(Path dir, List<String> warnings) throws IOException {
        List<RunReport> reports = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return reports;
        }
        try (var files = Files.list(dir)) {
            // The pyverbs reference is a table of its own, not a run of the suite.
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .filter(p -> !p.getFileName().toString().equals(PyverbsReference.FILE)).sorted().toList()) {
                try {
                    reports.add(read(Files.readString(f, StandardCharsets.UTF_8)));
                } catch (IllegalArgumentException e) {
                    warnings.add(f + ": " + e.getMessage());
                }
            }
        }
        return reports;
    }

    /** A file name for a label: anything but letters, digits, dot, dash and underscore becomes '_'. */
    static String fileName(String label) {
        return label.replaceAll("[^A-Za-z0-9._-]", "_") + ".json";
    }
}
