package dev.verbs4j.conformance.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of rdma-core's own test suite (pyverbs' {@code tests/run_tests.py}) on a kernel
 * device, as scripts/pyverbs-run.py records it in the micro-VM: {@value #FILE} in the report
 * folder, format {@value #FORMAT}. It is the reference table the suite's cases are mapped to
 * ({@link PyverbsMapping}); it is not a column of the matrix.
 * It has no libibverbs counterpart: it is part of the suite's report.
 *
 * @param device     the device the tests ran on
 * @param startedAt  ISO-8601 instant
 * @param durationMs wall time of the whole pyverbs run
 * @param tests      every test, by id
 */
public record PyverbsReference(String device, String startedAt, long durationMs, List<Test> tests) {
    /** The file's name in the report folder. */
    public static final String FILE = "pyverbs-rxe.json";
    /** The value of the file's {@code format} field. */
    public static final String FORMAT = "verbs4j-pyverbs-reference/1";

    /**
     * One pyverbs test: {@code pass}, {@code fail}, {@code error} or {@code skip}, and the message or skip reason.
     * It has no libibverbs counterpart: it records a test of rdma-core's own suite.
     *
     * @param id the test, {@code tests.module.Class.test_method}
     * @param outcome {@code pass}, {@code fail}, {@code error} or {@code skip}
     * @param detail the failure message or skip reason, else empty
     */
    public record Test(String id, String outcome, String detail) {
        /**
         * Whether the test ran on the device (anything but a skip).
         *
         * @return true unless the outcome is {@code skip}
         */
        public boolean ran() {
            return !outcome.equals("skip");
        }
    }

    /** A reference holding a copy of the test list. */
    public PyverbsReference {
        tests = List.copyOf(tests);
    }

    /**
     * The tests that ran (passed, failed or errored).
     *
     * @return those tests, in file order
     */
    public List<Test> ran() {
        return tests.stream().filter(Test::ran).toList();
    }

    /**
     * How many tests had {@code outcome}.
     *
     * @param outcome {@code pass}, {@code fail}, {@code error} or {@code skip}
     * @return the count
     */
    public long count(String outcome) {
        return tests.stream().filter(t -> t.outcome().equals(outcome)).count();
    }

    /**
     * The reference in {@code dir}, if the VM wrote one.
     *
     * @param dir the report folder
     * @return the reference, or empty when the folder has no {@value #FILE}
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException when it is not of this format
     */
    public static Optional<PyverbsReference> readFrom(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        return Files.isRegularFile(file) ? Optional.of(read(Files.readString(file, StandardCharsets.UTF_8))) : Optional.empty();
    }

    /**
     * Parses the file's text.
     *
     * @param text the JSON text
     * @return the reference
     * @throws IllegalArgumentException when it is not of this format
     */
    public static PyverbsReference read(String text) {
        if (!(Json.parse(text) instanceof Map<?, ?> root) || !FORMAT.equals(root.get("format"))) {
            throw new IllegalArgumentException("not a " + FORMAT + " document");
        }
        List<Test> tests = new ArrayList<>();
        if (root.get("tests") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> t) {
                    tests.add(new Test(text(t, "id"), text(t, "outcome"), text(t, "detail")));
                }
            }
        }
        long duration = root.get("durationMs") instanceof Double d ? d.longValue() : 0;
        return new PyverbsReference(text(root, "device"), text(root, "startedAt"), duration, tests);
    }

    private static String text(Map<?, ?> map, String key) {
        Object v = map.get(key);
        return v == null ? "" : v.toString();
    }
}
