package dev.verbs4j.conformance.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The report folder: {@code <label>.json} per run, and {@code conformance-matrix.md} /
 * {@code conformance-matrix.html} merged from every run found there, with the
 * {@linkplain Findings#bundled() listed findings} marked and each case's agreement across
 * the runs; with runs of the kernel's device on both sides that recorded their kernel, also
 * {@code conformance-kernels.md} / {@code .html}, the {@linkplain KernelView view by kernel};
 * and, where the micro-VM left rdma-core's pyverbs results ({@value PyverbsReference#FILE}),
 * the {@linkplain PyverbsPage pyverbs reference page}. The folder is
 * {@value #DIR_PROPERTY} (default {@code target/conformance}).
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public final class ReportFiles {
    /** The system property naming the report folder. */
    public static final String DIR_PROPERTY = "verbs4j.conformance.reportDir";
    /** The matrix's Markdown file name. */
    public static final String MATRIX_MARKDOWN = "conformance-matrix.md";
    /** The matrix's HTML file name. */
    public static final String MATRIX_HTML = "conformance-matrix.html";
    /** The kernel view's Markdown file name. */
    public static final String KERNELS_MARKDOWN = "conformance-kernels.md";
    /** The kernel view's HTML file name. */
    public static final String KERNELS_HTML = "conformance-kernels.html";

    private ReportFiles() {
    }

    /**
     * The folder the system properties name.
     *
     * @return the folder, not necessarily existing yet
     */
    public static Path directory() {
        String dir = System.getProperty(DIR_PROPERTY);
        return Path.of(dir == null || dir.isBlank() ? "target/conformance" : dir);
    }

    /**
     * Writes the run's JSON, then the matrix of every run in {@code dir}.
     *
     * @return the files written; problems reading other runs are added to {@code warnings}
     * @param dir the report folder, created if needed
     * @param run the run
     * @param warnings where problems with other runs' files are added
     * @throws IOException when a file cannot be written
     */
    public static List<Path> write(Path dir, RunReport run, List<String> warnings) throws IOException {
        List<Path> written = new ArrayList<>();
        written.add(ReportJson.writeFile(dir, run));
        written.addAll(rewriteMatrix(dir, warnings).files());
        return written;
    }

    /**
     * What a merge wrote, how the columns it merged agree, and the pyverbs reference page's
     * summary line and problems (empty when the folder has no {@value PyverbsReference#FILE}).
     * It has no libibverbs counterpart: it is part of the suite's report.
     *
     * @param files the files written
     * @param agreements how the merged columns agree
     * @param pyverbsSummary the pyverbs page's summary line, if the page was written
     * @param pyverbsProblems the pyverbs page's problems
     */
    public record Merged(List<Path> files, CaseAgreements agreements, Optional<String> pyverbsSummary, List<String> pyverbsProblems) {
    }

    /**
     * Re-reads every run in {@code dir} and rewrites the matrix only (for merging runs copied in from elsewhere).
     *
     * @param dir the report folder
     * @param warnings where problems with the runs' files are added
     * @return what was written and how the columns agree
     * @throws IOException when a file cannot be read or written
     */
    public static Merged rewriteMatrix(Path dir, List<String> warnings) throws IOException {
        List<RunReport> runs = ReportJson.readAll(dir, warnings);
        Findings findings = Findings.bundled();
        MatrixWriter matrix = new MatrixWriter(runs, findings);
        List<Path> files = new ArrayList<>();
        files.add(Files.writeString(dir.resolve(MATRIX_MARKDOWN), matrix.markdown(), StandardCharsets.UTF_8));
        files.add(Files.writeString(dir.resolve(MATRIX_HTML), matrix.html(), StandardCharsets.UTF_8));
        KernelView kernels = new KernelView(runs, findings);
        if (kernels.kernels() > 0) {
            files.add(Files.writeString(dir.resolve(KERNELS_MARKDOWN), kernels.markdown(), StandardCharsets.UTF_8));
            files.add(Files.writeString(dir.resolve(KERNELS_HTML), kernels.html(), StandardCharsets.UTF_8));
        }
        Optional<PyverbsReference> reference;
        try {
            reference = PyverbsReference.readFrom(dir);
        } catch (IllegalArgumentException e) {
            warnings.add(dir.resolve(PyverbsReference.FILE) + ": " + e.getMessage());
            reference = Optional.empty();
        }
        if (reference.isEmpty()) {
            return new Merged(List.copyOf(files), matrix.agreements(), Optional.empty(), List.of());
        }
        PyverbsPage page = new PyverbsPage(reference.get(), PyverbsMapping.bundled(), runs, findings);
        files.add(Files.writeString(dir.resolve(PyverbsPage.MARKDOWN), page.markdown(), StandardCharsets.UTF_8));
        files.add(Files.writeString(dir.resolve(PyverbsPage.HTML), page.html(), StandardCharsets.UTF_8));
        return new Merged(List.copyOf(files), matrix.agreements(), Optional.of(page.summaryLine()), page.problems());
    }
}
