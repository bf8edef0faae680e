package dev.verbs4j.conformance;

import dev.verbs4j.conformance.report.CaseResult;
import dev.verbs4j.conformance.report.Outcome;
import dev.verbs4j.conformance.report.ReportFiles;
import dev.verbs4j.conformance.report.ReportJson;
import dev.verbs4j.conformance.report.RunCapabilities;
import dev.verbs4j.conformance.report.RunReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConformanceMainMergeTest {
    /** Listed in the bundled ibverbs-rxe.tsv as the kernel's behaviour on the local side, from 6.12. */
    private static final String LOCAL_FINDING = "errors/LocalProtectionTest#unknownLkeyIsLocalProtectionError";
    private static final String PASSING = "base/SendReceiveTest#sendLandsInPostedReceive";

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    private static void column(Path dir, String label, String provider, String device, String peerProvider, String peerDevice,
                               Outcome findingCase) throws IOException {
        ReportJson.writeFile(dir, new RunReport(label, provider, device, peerProvider, peerDevice, "t", 1, "env",
                "7.3.4+deb13-amd64", RunCapabilities.NONE, List.of(
                new CaseResult(PASSING, "c", "n", Outcome.PASS, "", 1),
                new CaseResult(LOCAL_FINDING, "c", "n", findingCase, findingCase == Outcome.FAIL ? "was WR_FLUSH_ERR" : "", 1))));
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void mergeExitsZeroWhenEveryDifferenceIsAListedFinding(@TempDir Path dir) throws IOException {
        column(dir, "soft-soft", "soft", "soft0", "soft", "soft1", Outcome.PASS);
        column(dir, "ibverbs-rxe", "ibverbs", "rxe0", "ibverbs", "rxe0", Outcome.FAIL);
        column(dir, "rxe-to-soft", "ibverbs", "rxe0", "soft", "soft0", Outcome.FAIL);

        assertEquals(0, ConformanceMain.merge(dir, out), printed());
        assertTrue(printed().endsWith("agreement: 2 cases ran on 2+ columns: 1 agree, 1 explained by findings, 0 unexplained disagreements\n"),
                printed());
        assertTrue(Files.readString(dir.resolve(ReportFiles.MATRIX_MARKDOWN)).contains("0 unexplained disagreements"));
    }

    @Test
    void mergeExitsOneAndNamesTheCaseWhenAColumnFailsUnexplained(@TempDir Path dir) throws IOException {
        column(dir, "soft-soft", "soft", "soft0", "soft", "soft1", Outcome.PASS);
        column(dir, "ibverbs-rxe", "ibverbs", "rxe0", "ibverbs", "rxe0", Outcome.FAIL);
        column(dir, "soft-to-rxe", "soft", "soft0", "ibverbs", "rxe0", Outcome.FAIL);

        assertEquals(1, ConformanceMain.merge(dir, out), printed());
        assertTrue(printed().contains("DISAGREE " + LOCAL_FINDING + ": fails unexplained in soft-to-rxe\n"), printed());
        assertTrue(printed().contains(", 1 unexplained disagreements"), printed());
    }

    @Test
    void mergeOfOneColumnComparesNothingAndExitsZero(@TempDir Path dir) throws IOException {
        column(dir, "soft-soft", "soft", "soft0", "soft", "soft1", Outcome.FAIL);

        assertEquals(0, ConformanceMain.merge(dir, out), printed());
        assertTrue(printed().contains("agreement: 0 cases ran on 2+ columns"), printed());
    }

    @Test
    void mergeOptionReadsTheReportDirectoryGivenBeforeIt(@TempDir Path dir) throws IOException {
        column(dir, "soft-soft", "soft", "soft0", "soft", "soft1", Outcome.PASS);
        column(dir, "soft-to-rxe", "soft", "soft0", "ibverbs", "rxe0", Outcome.FAIL);
        String before = System.getProperty(ReportFiles.DIR_PROPERTY);
        try {
            assertEquals(1, ConformanceMain.run(new String[] {"--report-dir", dir.toString(), "--merge"}, out), printed());
        } finally {
            if (before == null) {
                System.clearProperty(ReportFiles.DIR_PROPERTY);
            } else {
                System.setProperty(ReportFiles.DIR_PROPERTY, before);
            }
        }
        assertTrue(Files.exists(dir.resolve(ReportFiles.MATRIX_HTML)));
    }
}
