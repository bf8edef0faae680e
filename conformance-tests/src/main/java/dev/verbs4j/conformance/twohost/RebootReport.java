package dev.verbs4j.conformance.twohost;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The reboot checks' outcomes, one line each (case id, pass or fail, detail, tab-separated),
 * the form scripts/vm-evaluate.py turns into a conformance report.
 */
final class RebootReport {
    static final String CASE_PREFIX = "reboot/PeerRebootTest#";

    private final Path file;

    RebootReport(Path file) {
        this.file = file;
    }

    /**
     * Records one check.
     *
     * @param caseName the check's name
     * @param failure null when it passed, else why it failed
     * @return whether it passed
     */
    boolean check(String caseName, String failure) {
        String line = CASE_PREFIX + caseName + "\t" + (failure == null ? "pass\t" : "fail\t" + failure.replace('\t', ' ')
                .replace('\n', ' ')) + "\n";
        System.out.print(line);
        try {
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return failure == null;
    }
}
