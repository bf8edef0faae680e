package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CaseAgreementsTest {
    private static final String CASE = "errors/E#x";
    private static final Findings LOCAL_FINDING = Findings.of(Map.of("ibverbs-rxe", CASE + "\tlocal\trxe loses the local status\n"));

    private static RunReport column(String label, String provider, String device, String peerProvider, String peerDevice, Outcome outcome) {
        CaseResult c = new CaseResult(CASE, "dev.verbs4j.conformance.errors.E", "x", outcome, outcome == Outcome.PASS ? "" : "observed", 1);
        return new RunReport(label, provider, device, peerProvider, peerDevice, "t", 1, "env", List.of(c));
    }

    private static RunReport softSoft(Outcome outcome) {
        return column("soft-soft", "soft", "soft0", "soft", "soft1", outcome);
    }

    private static RunReport rxeRxe(Outcome outcome) {
        return column("ibverbs-rxe", "ibverbs", "rxe0", "ibverbs", "rxe0", outcome);
    }

    private static RunReport softToRxe(Outcome outcome) {
        return column("soft-to-rxe", "soft", "soft0", "ibverbs", "rxe0", outcome);
    }

    private static RunReport rxeToSoft(Outcome outcome) {
        return column("rxe-to-soft", "ibverbs", "rxe0", "soft", "soft0", outcome);
    }

    @Test
    void columnsThatRanItAllPassingAgreeAndSkipsDoNotCount() {
        CaseAgreements agreements = new CaseAgreements(List.of(softSoft(Outcome.PASS), rxeRxe(Outcome.PASS), softToRxe(Outcome.SKIP)), LOCAL_FINDING);

        assertEquals(Optional.of(Agreement.AGREE), agreements.of(CASE));
        assertEquals(1, agreements.compared());
    }

    @Test
    void failuresThatAreFindingsOfTheirColumnsAreExplained() {
        CaseAgreements agreements = new CaseAgreements(List.of(softSoft(Outcome.PASS), rxeRxe(Outcome.FAIL), rxeToSoft(Outcome.FAIL),
                softToRxe(Outcome.PASS)), LOCAL_FINDING);

        assertEquals(Optional.of(Agreement.EXPLAINED), agreements.of(CASE));
        assertEquals(Map.of(), agreements.disagreements());
    }

    @Test
    void localFindingDoesNotExplainTheFailureWhereTheKernelIsRemote() {
        CaseAgreements agreements = new CaseAgreements(List.of(softSoft(Outcome.PASS), rxeRxe(Outcome.FAIL), softToRxe(Outcome.FAIL)),
                LOCAL_FINDING);

        assertEquals(Optional.of(Agreement.DISAGREE), agreements.of(CASE));
        assertEquals(Map.of(CASE, List.of("soft-to-rxe")), agreements.disagreements());
    }

    @Test
    void unexplainedFailureDisagreesEvenWhereEveryColumnFails() {
        CaseAgreements agreements = new CaseAgreements(List.of(softSoft(Outcome.FAIL), rxeRxe(Outcome.FAIL)), Findings.none());

        assertEquals(Optional.of(Agreement.DISAGREE), agreements.of(CASE));
        assertEquals(Map.of(CASE, List.of("soft-soft", "ibverbs-rxe")), agreements.disagreements());
    }

    @Test
    void caseThatRanOnOneColumnIsNotCompared() {
        CaseAgreements agreements = new CaseAgreements(List.of(softSoft(Outcome.FAIL), rxeRxe(Outcome.SKIP)), Findings.none());

        assertEquals(Optional.empty(), agreements.of(CASE));
        assertEquals(0, agreements.compared());
        assertEquals(Map.of(), agreements.disagreements());
    }

    @Test
    void summaryLineCountsEachClass() {
        CaseAgreements agreements = new CaseAgreements(List.of(softSoft(Outcome.PASS), softToRxe(Outcome.FAIL)), LOCAL_FINDING);

        assertEquals("agreement: 1 cases ran on 2+ columns: 0 agree, 0 explained by findings, 1 unexplained disagreements",
                agreements.summaryLine());
    }
}
