package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

class MatrixWriterTest {
    private static CaseResult result(String id, Outcome outcome, String detail) {
        return new CaseResult(id, "dev.verbs4j.conformance." + id.replace('/', '.'), id, outcome, detail, 1);
    }

    private static RunReport run(String label, CaseResult... cases) {
        return new RunReport(label, "p", "d", "p", "d", "t", 1, "env", List.of(cases));
    }

    @Test
    void eachRunIsAColumnAndEachCaseARow() {
        RunReport soft = run("soft-soft", result("flush/F#a", Outcome.PASS, ""), result("base/B#b", Outcome.PASS, ""));
        RunReport rxe = run("ibverbs-ibverbs", result("flush/F#a", Outcome.FAIL, "expected: <REM_ACCESS_ERR> but was: <REM_INV_REQ_ERR>"));

        String md = new MatrixWriter(List.of(soft, rxe)).markdown();

        assertTrue(md.contains("| case | ibverbs-ibverbs | soft-soft |"), md);
        assertTrue(md.contains("| `flush/F#a` flush/F#a | **FAIL**: expected: &lt;REM_ACCESS_ERR&gt; but was: &lt;REM_INV_REQ_ERR&gt; | pass |"), md);
        assertTrue(md.contains("| `base/B#b` base/B#b | – | pass |"), md);
        assertTrue(md.indexOf("`base/B#b`") < md.indexOf("`flush/F#a`"), "families in suite order: " + md);
    }

    @Test
    void htmlCellCarriesTheFullDetailAndEscapesIt() {
        String detail = "status <REM_INV_REQ_ERR> & \"more\"";
        String html = new MatrixWriter(List.of(run("r", result("errors/E#x", Outcome.FAIL, detail)))).html();

        assertTrue(html.contains("title=\"status &lt;REM_INV_REQ_ERR&gt; &amp; &quot;more&quot;\""), html);
        assertTrue(html.contains("class=\"fail\""), html);
    }

    @Test
    void skipsAreListedWithTheirReasons() {
        String md = new MatrixWriter(List.of(run("r", result("odp/O#x", Outcome.SKIP, "no ODP | at all")))).markdown();

        assertTrue(md.contains("- **skip** `odp/O#x`: no ODP \\| at all"), md);
    }
}
