package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

class MatrixWriterTest {
    private static CaseResult result(String id, Outcome outcome, String detail) {
        return new CaseResult(id, "dev.verbs4j.conformance." + id.replace('/', '.'), id, outcome, detail, 1);
    }

    private static RunReport run(String label, CaseResult... cases) {
        return new RunReport(label, "p", "d", "p", "d", "t", 1, "env", List.of(cases));
    }

    private static RunReport rxeRun(CaseResult... cases) {
        return new RunReport("ibverbs-rxe", "ibverbs", "rxe0", "ibverbs", "rxe0", "t", 1, "env", List.of(cases));
    }

    @Test
    void eachRunIsAColumnAndEachCaseARow() {
        RunReport soft = run("soft-soft", result("flush/F#a", Outcome.PASS, ""), result("base/B#b", Outcome.PASS, ""));
        RunReport rxe = run("ibverbs-ibverbs", result("flush/F#a", Outcome.FAIL, "expected: <REM_ACCESS_ERR> but was: <REM_INV_REQ_ERR>"));

        String md = new MatrixWriter(List.of(soft, rxe)).markdown();

        assertTrue(md.contains("| case | agreement | ibverbs-ibverbs | soft-soft |"), md);
        assertTrue(md.contains("| `flush/F#a` flush/F#a | **DISAGREE** | **FAIL**: expected: &lt;REM_ACCESS_ERR&gt; but was: &lt;REM_INV_REQ_ERR&gt; | pass |"), md);
        assertTrue(md.contains("| `base/B#b` base/B#b | not compared | – | pass |"), md);
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

    @Test
    void listedFailureOfTheMatchingRunIsAFindingAndOthersStayFailures() {
        Findings findings = Findings.of(Map.of("ibverbs-rxe", "# comment\nflush/F#a\trxe answers REM_INV_REQ_ERR\n"));
        CaseResult listed = result("flush/F#a", Outcome.FAIL, "was REM_INV_REQ_ERR");
        CaseResult unlisted = result("flush/F#b", Outcome.FAIL, "was WR_FLUSH_ERR");
        RunReport rxe = rxeRun(listed, unlisted);
        RunReport other = run("soft-soft", listed);

        String md = new MatrixWriter(List.of(rxe, other), findings).markdown();

        assertTrue(md.contains("| ibverbs-rxe | ibverbs/rxe0 → ibverbs/rxe0 | 0 | 1 | 1 | 0 |"), md);
        assertTrue(md.contains("| soft-soft | p/d → p/d | 0 | 1 | 0 | 0 |"), md);
        assertTrue(md.contains("| `flush/F#a` flush/F#a | **DISAGREE** | finding: rxe answers REM_INV_REQ_ERR | **FAIL**: was REM_INV_REQ_ERR |"), md);
        assertTrue(md.contains("- **finding** `flush/F#a`: was REM_INV_REQ_ERR (listed finding: rxe answers REM_INV_REQ_ERR)"), md);
        assertTrue(md.contains("- **fail** `flush/F#b`: was WR_FLUSH_ERR"), md);
        assertTrue(new MatrixWriter(List.of(rxe), findings).html().contains("<td class=\"finding\""));
    }

    @Test
    void aPassingListedCaseIsAPass() {
        Findings findings = Findings.of(Map.of("ibverbs-rxe", "flush/F#a\trxe answers REM_INV_REQ_ERR\n"));

        String md = new MatrixWriter(List.of(rxeRun(result("flush/F#a", Outcome.PASS, ""))), findings).markdown();

        assertTrue(md.contains("| `flush/F#a` flush/F#a | not compared | pass |"), md);
    }

    @Test
    void eachRowSaysWhetherTheColumnsThatRanItAgree() {
        Findings findings = Findings.of(Map.of("ibverbs-rxe", "flush/F#a\tremote\trxe answers REM_INV_REQ_ERR\n"));
        RunReport soft = run("soft-soft", result("flush/F#a", Outcome.PASS, ""), result("base/B#b", Outcome.PASS, ""));
        RunReport rxe = rxeRun(result("flush/F#a", Outcome.FAIL, "was REM_INV_REQ_ERR"), result("base/B#b", Outcome.PASS, ""));
        MatrixWriter matrix = new MatrixWriter(List.of(soft, rxe), findings);

        String md = matrix.markdown();
        String html = matrix.html();

        String line = "agreement: 2 cases ran on 2+ columns: 1 agree, 1 explained by findings, 0 unexplained disagreements";
        assertTrue(md.contains("\n" + line + "\n"), md);
        assertTrue(md.contains("| `flush/F#a` flush/F#a | explained | finding: rxe answers REM_INV_REQ_ERR | pass |"), md);
        assertTrue(md.contains("| `base/B#b` base/B#b | agree | pass | pass |"), md);
        assertTrue(html.contains("<p>" + line + "</p>"), html);
        assertTrue(html.contains("<td class=\"explained\">explained</td>"), html);
    }
}
