package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportJsonTest {
    private static RunReport sample() {
        return new RunReport("ibverbs-soft", "ibverbs", "rxe0", "soft", "soft1", "2026-01-01T00:00:00Z", 1234,
                "Linux 6.18, Java 25", List.of(
                new CaseResult("base/SendReceiveTest#sendLandsInPostedReceive", "dev.verbs4j.conformance.base.SendReceiveTest",
                        "send lands in posted receive", Outcome.PASS, "", 12),
                new CaseResult("flush/FlushPlacementTest#x", "dev.verbs4j.conformance.flush.FlushPlacementTest", "x",
                        Outcome.FAIL, "expected: <REM_ACCESS_ERR> but was: <REM_INV_REQ_ERR>\n\t\"quoted\" \\ back\u0001", 3),
                new CaseResult("odp/OdpTrafficTest#y", "dev.verbs4j.conformance.odp.OdpTrafficTest", "y", Outcome.SKIP,
                        "local device reports no On-Demand Paging", 0)));
    }

    @Test
    void writtenReportReadsBackEqual() {
        RunReport original = sample();

        RunReport read = ReportJson.read(ReportJson.write(original));

        assertEquals(original, read);
    }

    @Test
    void kernelAndCapabilitiesReadBackEqual() {
        RunReport base = sample();
        RunReport original = new RunReport(base.label(), base.provider(), base.device(), base.peerProvider(), base.peerDevice(),
                base.startedAt(), base.durationMs(), base.environment(), "6.1.0-50-amd64",
                new RunCapabilities(List.of("MEM_WINDOW", "ATOMIC_HCA"), List.of("MEM_WINDOW", "ODP", "RC_ODP_WRITE")), base.cases());

        RunReport read = ReportJson.read(ReportJson.write(original));

        assertEquals(original, read);
        assertEquals("", ReportJson.read(ReportJson.write(base)).kernel(), "a report without a kernel");
    }

    @Test
    void whatARunLeftOutReadsBackEqual() {
        RunReport base = sample();
        RunReport original = new RunReport(base.label(), base.provider(), base.device(), base.peerProvider(), base.peerDevice(),
                base.startedAt(), base.durationMs(), base.environment(), "", RunCapabilities.NONE, base.cases(),
                List.of("access", "errors.RemoteAccessTest"));

        String json = ReportJson.write(original);

        assertTrue(json.contains("\"excluded\": [\"access\", \"errors.RemoteAccessTest\"]"), json);
        assertEquals(original, ReportJson.read(json));
        assertEquals(List.of(), ReportJson.read(ReportJson.write(base)).excluded(), "a run of the whole suite");
    }

    @Test
    void countsAreWrittenForReaders() {
        String json = ReportJson.write(sample());

        assertTrue(json.contains("\"counts\": {\"pass\": 1, \"fail\": 1, \"skip\": 1}"), json);
    }

    @Test
    void documentOfAnotherFormatIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> ReportJson.read("{\"format\": \"other/1\", \"cases\": []}"));
        assertThrows(IllegalArgumentException.class, () -> ReportJson.read("[1, 2]"));
        assertThrows(IllegalArgumentException.class, () -> ReportJson.read("{\"format\": \"verbs4j-conformance-report/1\""));
    }

    @Test
    void unknownFieldsAreIgnored() {
        String json = ReportJson.write(sample()).replace("\"label\":", "\"future\": {\"a\": [true, null, 1.5e3]}, \"label\":");

        assertEquals(sample(), ReportJson.read(json));
    }

    @Test
    void readAllSkipsFilesThatAreNotReports(@TempDir Path dir) throws Exception {
        ReportJson.writeFile(dir, sample());
        Files.writeString(dir.resolve("notes.json"), "{}");
        List<String> warnings = new ArrayList<>();

        List<RunReport> all = ReportJson.readAll(dir, warnings);

        assertEquals(List.of(sample()), all);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(Files.exists(dir.resolve("ibverbs-soft.json")));
    }

    @Test
    void labelBecomesSafeFileName() {
        assertEquals("ibverbs_rxe0-soft.json", ReportJson.fileName("ibverbs/rxe0-soft"));
    }
}
