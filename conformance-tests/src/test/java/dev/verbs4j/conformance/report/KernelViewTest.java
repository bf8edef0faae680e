package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KernelViewTest {
    private static final Findings FINDINGS = Findings.of(Map.of("ibverbs-rxe",
            "errors/E#lost\tlocal\trxe loses the status\n"));

    private static CaseResult result(String id, Outcome outcome) {
        return new CaseResult(id, "dev.verbs4j.conformance.x.X", id, outcome, outcome == Outcome.SKIP ? "no FLUSH" : "", 1);
    }

    private static RunReport kernelRun(String label, String kernel, List<String> capabilities, CaseResult... cases) {
        return new RunReport(label, "ibverbs", "rxe0", "ibverbs", "rxe0", "t", 1000, "env", kernel,
                new RunCapabilities(capabilities, capabilities), List.of(cases));
    }

    private static final RunReport OLD = kernelRun("ibverbs-rxe-6.1.0-50", "6.1.0-50-amd64", List.of("MEM_WINDOW"),
            result("base/B#same", Outcome.PASS), result("flush/F#flush", Outcome.SKIP), result("errors/E#lost", Outcome.PASS));
    private static final RunReport MIDDLE = kernelRun("ibverbs-rxe-6.12.117+deb13", "6.12.117+deb13-amd64",
            List.of("MEM_WINDOW", "FLUSH_GLOBAL"),
            result("base/B#same", Outcome.PASS), result("flush/F#flush", Outcome.PASS), result("errors/E#lost", Outcome.FAIL));
    private static final RunReport NEWEST = kernelRun("ibverbs-rxe", "7.3.4+deb13-amd64", List.of("MEM_WINDOW", "FLUSH_GLOBAL", "ODP"),
            result("base/B#same", Outcome.PASS), result("flush/F#flush", Outcome.PASS), result("errors/E#lost", Outcome.FAIL));
    private static final RunReport SOFT = new RunReport("soft-soft", "soft", "soft0", "soft", "soft1", "t", 1, "env",
            "6.18.0-amd64", RunCapabilities.NONE, List.of(result("base/B#same", Outcome.PASS)));

    private final KernelView view = new KernelView(List.of(NEWEST, SOFT, MIDDLE, OLD), FINDINGS);

    @Test
    void oneColumnPerKernelOldestFirstWithTheKernelDeviceOnBothSides() {
        assertEquals(3, view.kernels());
        List<String> kernels = view.runsTable().rows().stream().map(row -> row.getFirst().text()).toList();

        assertEquals(List.of("6.1.0-50-amd64", "6.12.117+deb13-amd64", "7.3.4+deb13-amd64"), kernels);
    }

    @Test
    void capabilitiesTableShowsOnlyWhatDiffers() {
        List<String> rows = view.capabilitiesTable().rows().stream().map(row -> row.getFirst().text()).toList();

        assertEquals(List.of("FLUSH_GLOBAL", "ODP"), rows);
        assertEquals("Every kernel reports: MEM_WINDOW.", view.commonCapabilities());
    }

    @Test
    void differingCasesLeaveOutCasesWithOneOutcomeEverywhere() {
        List<String> rows = view.differingCases().rows().stream().map(row -> row.getFirst().text()).toList();

        assertEquals(List.of("flush/F#flush", "errors/E#lost"), rows);
        assertEquals("same outcome on every kernel: 1 pass", view.sameEverywhere());
    }

    @Test
    void findingNamesItsFirstAndLastKernel() {
        List<KernelView.Cell> row = view.findingsTable().rows().getFirst();

        assertEquals("errors/E#lost", row.get(0).text());
        assertEquals("rxe loses the status", row.get(1).text());
        assertEquals("2 of 3", row.get(2).text());
        assertEquals("6.12.117+deb13-amd64", row.get(3).text());
        assertEquals("7.3.4+deb13-amd64", row.get(4).text());
    }

    @Test
    void aSecondKindOfDeviceIsAColumnOfItsOwnAndOtherRunsOfAKernelAreLeftOut() {
        RunReport siw = new RunReport("ibverbs-siw", "ibverbs", "siw0", "ibverbs", "siw0", "t", 1000, "env",
                "7.3.4+deb13-amd64", new RunCapabilities(List.of("MEM_MGT_EXTENSIONS"), List.of("MEM_MGT_EXTENSIONS")),
                List.of(result("base/B#same", Outcome.PASS)));
        RunReport cm = kernelRun("cm-ibverbs-rxe", "7.3.4+deb13-amd64", List.of(), result("base/B#same", Outcome.FAIL));
        RunReport patched = kernelRun("ibverbs-rxe-patched", "7.3.4+deb13-amd64", List.of(), result("base/B#same", Outcome.FAIL));
        // Across two hosts, on a kernel no other run has: it would be a column of its own.
        RunReport pair = kernelRun("pair-rxe-to-rxe", "6.12.117+deb13-amd64", List.of(), result("base/B#same", Outcome.PASS));
        KernelView both = new KernelView(List.of(siw, cm, patched, pair, NEWEST, OLD), FINDINGS);

        List<String> columns = both.runsTable().rows().stream().map(row -> row.getFirst().text()).toList();
        List<String> labels = both.runsTable().rows().stream().map(row -> row.get(1).text()).toList();
        assertEquals(List.of("6.1.0-50-amd64", "7.3.4+deb13-amd64", "7.3.4+deb13-amd64 siw"), columns);
        assertEquals(List.of("ibverbs-rxe-6.1.0-50", "ibverbs-rxe", "ibverbs-siw"), labels,
                "the CM's, the patched module's and the two hosts' runs of a kernel are not its column");
    }

    @Test
    void bothFormsCarryTheSections() {
        assertTrue(view.markdown().contains("## Findings by kernel"));
        assertTrue(view.html().contains("<h2>Capabilities that differ between kernels</h2>"));
    }
}
