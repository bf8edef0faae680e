package dev.verbs4j.conformance.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How rdma-core's own test suite (pyverbs' {@code tests/}) maps onto this suite, as listed in
 * {@code conformance-tests/pyverbs/mapping.tsv}: one line per pyverbs test that runs on the
 * kernel rxe, tab-separated, in one of two forms:
 * <pre>
 * tests.test_pd.PDTest.test_alloc_pd   base/ProtectionDomainTest#allocatesAndCloses[, more case ids]
 * tests.test_fork.ForkAPITest.test_x   reason: why the behaviour has no counterpart here
 * </pre>
 * A mapped case covers the same behaviour as the pyverbs test. scripts/vm-evaluate.py reads the
 * same file with the same rule and fails the run when a pyverbs test that ran has no line, or
 * when a line names a case the suite does not have.
 */
public final class PyverbsMapping {
    private static final String RESOURCE = "/dev/verbs4j/conformance/pyverbs/mapping.tsv";
    private static final String REASON = "reason:";

    /**
     * One pyverbs test: the suite's cases that cover it, or why none does.
     * It has no libibverbs counterpart: it is part of the suite's report.
     *
     * @param testId the pyverbs test, {@code tests.module.Class.test_method}
     * @param caseIds the suite's cases that cover it, empty when a reason is given
     * @param reason why no case covers it, or null
     */
    public record Line(String testId, List<String> caseIds, String reason) {
        /** A line holding a copy of the case ids. */
        public Line {
            caseIds = List.copyOf(caseIds);
        }

        /**
         * Whether the line gives a reason instead of cases.
         *
         * @return true for a {@code reason:} line
         */
        public boolean hasReason() {
            return caseIds.isEmpty();
        }
    }

    private final Map<String, Line> byTest;

    private PyverbsMapping(Map<String, Line> byTest) {
        this.byTest = byTest;
    }

    /**
     * The mapping shipped with the suite.
     *
     * @return the mapping read from the suite's resources
     */
    public static PyverbsMapping bundled() {
        try (InputStream in = PyverbsMapping.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the pyverbs mapping " + RESOURCE + " is not on the class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses the text of a mapping file.
     *
     * @throws IllegalArgumentException for a line without two columns, an empty reason or case
     *                                  list, or a test listed twice
     * @param text the file's text
     * @return the mapping
     */
    public static PyverbsMapping parse(String text) {
        Map<String, Line> byTest = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t");
            if (fields.length != 2 || fields[0].isBlank() || fields[1].isBlank()) {
                throw new IllegalArgumentException("mapping.tsv: a line is 'pyverbs test<TAB>case ids or reason: ...': " + line);
            }
            String test = fields[0].trim();
            String target = fields[1].trim();
            Line parsed;
            if (target.startsWith(REASON)) {
                String reason = target.substring(REASON.length()).trim();
                if (reason.isEmpty()) {
                    throw new IllegalArgumentException("mapping.tsv: empty reason for " + test);
                }
                parsed = new Line(test, List.of(), reason);
            } else {
                parsed = new Line(test, Arrays.stream(target.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList(), "");
            }
            if (byTest.putIfAbsent(test, parsed) != null) {
                throw new IllegalArgumentException("mapping.tsv: " + test + " is listed twice");
            }
        }
        return new PyverbsMapping(byTest);
    }

    /**
     * The line for a pyverbs test, if there is one.
     *
     * @param testId the pyverbs test
     * @return its line
     */
    public Optional<Line> of(String testId) {
        return Optional.ofNullable(byTest.get(testId));
    }

    /**
     * Every line, in file order.
     *
     * @return the lines, unmodifiable
     */
    public List<Line> lines() {
        return new ArrayList<>(byTest.values());
    }
}
