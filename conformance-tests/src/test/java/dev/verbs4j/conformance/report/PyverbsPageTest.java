package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PyverbsPageTest {
    private static final String REFERENCE = """
            {"format": "verbs4j-pyverbs-reference/1", "device": "rxe0", "startedAt": "t", "durationMs": 61000,
             "counts": {"pass": 3, "fail": 0, "error": 0, "skip": 1},
             "tests": [
              {"id": "tests.test_pd.PDTest.test_alloc_pd", "outcome": "pass", "detail": "", "durationMs": 1},
              {"id": "tests.test_fork.ForkAPITest.test_x", "outcome": "pass", "detail": "", "durationMs": 1},
              {"id": "tests.test_cq.CQTest.test_resize_cq", "outcome": "pass", "detail": "", "durationMs": 1},
              {"id": "tests.test_flow.FlowTest.test_y", "outcome": "skip", "detail": "Create QP type 8 is not supported", "durationMs": 1}]}
            """;
    private static final PyverbsMapping MAPPING = PyverbsMapping.parse("""
            tests.test_pd.PDTest.test_alloc_pd\tbase/P#a, base/P#gone
            tests.test_fork.ForkAPITest.test_x\treason: no fork in the API
            """);

    private static RunReport run(String label) {
        return new RunReport(label, "p", "d", "p", "d", "t", 1, "env",
                List.of(new CaseResult("base/P#a", "dev.verbs4j.conformance.base.P", "a", Outcome.PASS, "", 1)));
    }

    private static RunReport rxeRunFailing() {
        return new RunReport("ibverbs-rxe", "ibverbs", "rxe0", "ibverbs", "rxe0", "t", 1, "env",
                List.of(new CaseResult("base/P#a", "dev.verbs4j.conformance.base.P", "a", Outcome.FAIL, "was WR_FLUSH_ERR", 1)));
    }

    @Test
    void unmappedTestsAndUnknownCasesAreProblems() {
        PyverbsPage page = new PyverbsPage(PyverbsReference.read(REFERENCE), MAPPING, List.of(run("soft-soft")), Findings.none());

        assertEquals(List.of(
                "mapping.tsv maps tests.test_pd.PDTest.test_alloc_pd to base/P#gone, which no conformance report has",
                "pyverbs test tests.test_cq.CQTest.test_resize_cq ran on rxe0 but has no line in mapping.tsv"), page.problems());
        assertEquals("pyverbs on rxe0: 3 tests ran (3 passed, 0 failed, 0 errors), 1 skipped; 1 mapped to suite cases, "
                + "1 with a reason, 1 unmapped", page.summaryLine());
    }

    @Test
    void pageShowsEachCaseWithItsOutcomeOrFindingPerColumnAndTheSkips() {
        String md = new PyverbsPage(PyverbsReference.read(REFERENCE), MAPPING, List.of(run("soft-soft"), rxeRunFailing()),
                Findings.of(Map.of("ibverbs-rxe", "base/P#a\trxe answers otherwise\n"))).markdown();

        assertTrue(md.contains("| `tests.test_pd.PDTest.test_alloc_pd` | pass | `base/P#a` (ibverbs-rxe finding, soft-soft pass)"), md);
        assertTrue(md.contains("| `tests.test_fork.ForkAPITest.test_x` | pass | reason: no fork in the API |"), md);
        assertTrue(md.contains("| `tests.test_cq.CQTest.test_resize_cq` | pass | **UNMAPPED** |"), md);
        assertTrue(md.contains("| `tests.test_flow.FlowTest.test_y` | Create QP type 8 is not supported |"), md);
    }
}
