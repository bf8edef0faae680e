package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FindingsTest {
    private static final CaseResult FAILED = new CaseResult("errors/E#x", "dev.verbs4j.conformance.errors.E", "x", Outcome.FAIL, "was WR_FLUSH_ERR", 1);

    /** The kernel on both sides, on one side only, and on neither. */
    private static final RunReport RXE_RXE = column("ibverbs-rxe", "ibverbs", "rxe0", "ibverbs", "rxe0");
    private static final RunReport SOFT_TO_RXE = column("soft-to-rxe", "soft", "soft0", "ibverbs", "rxe0");
    private static final RunReport RXE_TO_SOFT = column("rxe-to-soft", "ibverbs", "rxe0", "soft", "soft0");
    private static final RunReport SOFT_SOFT = column("soft-soft", "soft", "soft0", "soft", "soft1");

    private static RunReport column(String label, String provider, String device, String peerProvider, String peerDevice) {
        return new RunReport(label, provider, device, peerProvider, peerDevice, "t", 1, "env", List.of(FAILED));
    }

    private static Findings rxeList(String line) {
        return Findings.of(Map.of("ibverbs-rxe", "# header\n" + line + "\n"));
    }

    @Test
    void twoColumnLineAppliesOnlyWhereBothSidesAreTheDevice() {
        Findings findings = rxeList("errors/E#x\trxe answers WR_FLUSH_ERR");

        assertEquals("rxe answers WR_FLUSH_ERR", findings.reason(RXE_RXE, FAILED));
        assertNull(findings.reason(SOFT_TO_RXE, FAILED));
        assertNull(findings.reason(RXE_TO_SOFT, FAILED));
    }

    @Test
    void localFindingDoesNotExcuseTheCaseWhereTheKernelIsOnlyRemote() {
        Findings findings = rxeList("errors/E#x\tlocal\trxe completes the failing request with WR_FLUSH_ERR");

        assertNotNull(findings.reason(RXE_RXE, FAILED));
        assertNotNull(findings.reason(RXE_TO_SOFT, FAILED));
        assertNull(findings.reason(SOFT_TO_RXE, FAILED));
        assertNull(findings.reason(SOFT_SOFT, FAILED));
    }

    @Test
    void remoteFindingDoesNotExcuseTheCaseWhereTheKernelIsOnlyLocal() {
        Findings findings = rxeList("errors/E#x\tremote\trxe NAKs with REM_OP_ERR");

        assertNotNull(findings.reason(RXE_RXE, FAILED));
        assertNotNull(findings.reason(SOFT_TO_RXE, FAILED));
        assertNull(findings.reason(RXE_TO_SOFT, FAILED));
    }

    @Test
    void eitherFindingExcusesTheCaseWhereverTheKernelIs() {
        Findings findings = rxeList("errors/E#x\teither\trxe's copy ignores the page offset");

        assertNotNull(findings.reason(RXE_RXE, FAILED));
        assertNotNull(findings.reason(SOFT_TO_RXE, FAILED));
        assertNotNull(findings.reason(RXE_TO_SOFT, FAILED));
        assertNull(findings.reason(SOFT_SOFT, FAILED));
    }

    @Test
    void sideMatchesByProviderAndDevicePrefix() {
        Findings findings = rxeList("errors/E#x\tremote\trxe NAKs with REM_OP_ERR");

        assertNotNull(findings.reason(column("soft-to-rxe1", "soft", "soft0", "ibverbs", "rxe1"), FAILED));
        assertNull(findings.reason(column("soft-to-mlx5", "soft", "soft0", "ibverbs", "mlx5_0"), FAILED));
        assertNull(findings.reason(column("odd", "ibverbs", "soft0", "soft", "rxe0"), FAILED));
    }

    @Test
    void caseMayBeListedOncePerSide() {
        Findings findings = rxeList("errors/E#x\tlocal\tas requester\nerrors/E#x\tremote\tas responder");

        assertEquals("as requester", findings.reason(RXE_TO_SOFT, FAILED));
        assertEquals("as responder", findings.reason(SOFT_TO_RXE, FAILED));
    }

    @Test
    void passOrSkipIsNeverAFinding() {
        Findings findings = rxeList("errors/E#x\teither\tanything");
        CaseResult passed = new CaseResult(FAILED.id(), FAILED.className(), "x", Outcome.PASS, "", 1);
        CaseResult skipped = new CaseResult(FAILED.id(), FAILED.className(), "x", Outcome.SKIP, "no device", 1);

        assertNull(findings.reason(RXE_RXE, passed));
        assertNull(findings.reason(RXE_RXE, skipped));
    }

    @Test
    void unknownSideKernelRangeOrExtraColumnIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> rxeList("errors/E#x\tlcoal\treason"));
        assertThrows(IllegalArgumentException.class, () -> rxeList("errors/E#x\tlocal\treason\tmore"));
        assertThrows(IllegalArgumentException.class, () -> rxeList("errors/E#x\tlocal\t6.x..\treason"));
        assertThrows(IllegalArgumentException.class, () -> rxeList("errors/E#x\tlocal\t6.1..\treason\tmore"));
    }

    private static RunReport onKernel(String kernel) {
        return new RunReport("ibverbs-rxe-" + kernel, "ibverbs", "rxe0", "ibverbs", "rxe0", "t", 1, "env", kernel,
                RunCapabilities.NONE, List.of(FAILED));
    }

    @Test
    void kernelRangeLimitsTheLineToThoseReleases() {
        Findings findings = rxeList("errors/E#x\tlocal\t6.2..6.12\tonly there");

        assertNull(findings.reason(onKernel("6.1.0-50-amd64"), FAILED));
        assertNotNull(findings.reason(onKernel("6.2.16-amd64"), FAILED));
        assertNotNull(findings.reason(onKernel("6.12.117+deb13-amd64"), FAILED));
        assertNull(findings.reason(onKernel("6.13.1-amd64"), FAILED));
        assertNull(findings.reason(onKernel("7.3.4+deb13-amd64"), FAILED));
        assertNull(findings.reason(RXE_RXE, FAILED), "a run that recorded no kernel");
    }

    @Test
    void openEndedRangesAndBothSides() {
        Findings upTo = rxeList("errors/E#x\tboth\t..6.1\told kernels");
        Findings from = rxeList("errors/E#x\teither\t6.15..\tnew kernels");

        assertNotNull(upTo.reason(onKernel("6.1.0-50-amd64"), FAILED));
        assertNull(upTo.reason(onKernel("6.12.117+deb13-amd64"), FAILED));
        assertNull(from.reason(onKernel("6.14.9-amd64"), FAILED));
        assertNotNull(from.reason(onKernel("7.3.4+deb13-amd64"), FAILED));
        assertNull(upTo.reason(column("rxe-to-soft", "ibverbs", "rxe0", "soft", "soft0"), FAILED));
    }

    @Test
    void firstApplyingLineGivesTheReason() {
        Findings findings = rxeList("errors/E#x\tlocal\t..6.1\tLOC_QP_OP_ERR there\nerrors/E#x\tlocal\tWR_FLUSH_ERR elsewhere");

        assertEquals("LOC_QP_OP_ERR there", findings.reason(onKernel("6.1.0-50-amd64"), FAILED));
        assertEquals("WR_FLUSH_ERR elsewhere", findings.reason(onKernel("6.12.117+deb13-amd64"), FAILED));
    }

    private static RunReport onKernel(String kernel, String provider, String peerProvider) {
        return new RunReport("k", provider, provider.equals("soft") ? "soft0" : "rxe0", peerProvider,
                peerProvider.equals("soft") ? "soft0" : "rxe0", "t", 1, "env", kernel, RunCapabilities.NONE, List.of(FAILED));
    }

    @Test
    void bundledListNamesTheSideOfEachKernelBehaviour() {
        Findings bundled = Findings.bundled();
        RunReport rxeRxe = onKernel("7.3.4+deb13-amd64", "ibverbs", "ibverbs");
        RunReport rxeToSoft = onKernel("7.3.4+deb13-amd64", "ibverbs", "soft");
        RunReport softToRxe = onKernel("7.3.4+deb13-amd64", "soft", "ibverbs");
        CaseResult lostLocalStatus = new CaseResult("errors/LocalProtectionTest#unknownLkeyIsLocalProtectionError",
                "dev.verbs4j.conformance.errors.LocalProtectionTest", "x", Outcome.FAIL, "WR_FLUSH_ERR", 1);
        CaseResult responderNak = new CaseResult("errors/ReceiveLengthTest#receiveTooSmallFailsBothSides",
                "dev.verbs4j.conformance.errors.ReceiveLengthTest", "x", Outcome.FAIL, "REM_OP_ERR", 1);

        assertNotNull(bundled.reason(rxeRxe, lostLocalStatus));
        assertNotNull(bundled.reason(rxeToSoft, lostLocalStatus));
        assertNull(bundled.reason(softToRxe, lostLocalStatus));
        assertNotNull(bundled.reason(softToRxe, responderNak));
        assertNull(bundled.reason(rxeToSoft, responderNak));
    }

    @Test
    void bundledListGivesEachKernelItsOwnAnswer() {
        Findings bundled = Findings.bundled();
        CaseResult lostLocalStatus = new CaseResult("errors/LocalProtectionTest#unknownLkeyIsLocalProtectionError",
                "dev.verbs4j.conformance.errors.LocalProtectionTest", "x", Outcome.FAIL, "LOC_QP_OP_ERR", 1);

        assertTrue(bundled.reason(onKernel("6.1.0-50-amd64", "ibverbs", "ibverbs"), lostLocalStatus).contains("LOC_QP_OP_ERR"));
        assertTrue(bundled.reason(onKernel("7.3.4+deb13-amd64", "ibverbs", "ibverbs"), lostLocalStatus).contains("WR_FLUSH_ERR"));
        assertNull(bundled.reason(onKernel("6.8.0-1-amd64", "ibverbs", "ibverbs"), lostLocalStatus),
                "a kernel between the ranges, which nobody ran");
    }
}
