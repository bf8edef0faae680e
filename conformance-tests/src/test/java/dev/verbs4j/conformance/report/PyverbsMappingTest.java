package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PyverbsMappingTest {

    @Test
    void lineMapsToCasesOrGivesAReason() {
        PyverbsMapping mapping = PyverbsMapping.parse("""
                # header
                tests.test_pd.PDTest.test_alloc_pd\tbase/P#a, base/P#b
                tests.test_fork.ForkAPITest.test_x\treason: no fork in the API
                """);

        assertEquals(List.of("base/P#a", "base/P#b"), mapping.of("tests.test_pd.PDTest.test_alloc_pd").orElseThrow().caseIds());
        PyverbsMapping.Line reasoned = mapping.of("tests.test_fork.ForkAPITest.test_x").orElseThrow();
        assertTrue(reasoned.hasReason());
        assertEquals("no fork in the API", reasoned.reason());
        assertTrue(mapping.of("tests.test_cq.CQTest.test_resize_cq").isEmpty());
    }

    @Test
    void malformedLinesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PyverbsMapping.parse("tests.a.B.test_c\n"));
        assertThrows(IllegalArgumentException.class, () -> PyverbsMapping.parse("tests.a.B.test_c\treason:\n"));
        assertThrows(IllegalArgumentException.class, () -> PyverbsMapping.parse("tests.a.B.test_c\tbase/X#y\ntests.a.B.test_c\tbase/X#z\n"));
    }

    /** Every case the shipped mapping names is a conformance case of this suite. */
    @Test
    void shippedMappingNamesOnlyCasesOfTheSuite() {
        Set<String> suite = suiteCaseIds();
        assertFalse(suite.isEmpty(), "the suite's cases were found");
        List<String> unknown = new ArrayList<>();
        for (PyverbsMapping.Line line : PyverbsMapping.bundled().lines()) {
            line.caseIds().stream().filter(id -> !suite.contains(id)).forEach(id -> unknown.add(line.testId() + " -> " + id));
        }
        assertEquals(List.of(), unknown, "mapping.tsv lines naming cases the suite does not have");
    }

    private static Set<String> suiteCaseIds() {
        TestPlan plan = LauncherFactory.create().discover(LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectPackage("dev.verbs4j.conformance")).build());
        Set<String> ids = new HashSet<>();
        List<TestIdentifier> pending = new ArrayList<>(plan.getRoots());
        while (!pending.isEmpty()) {
            TestIdentifier id = pending.removeLast();
            pending.addAll(plan.getChildren(id));
            if (id.isTest()) {
                ConformanceReportListener.caseId(id, plan::getParent).ifPresent(ids::add);
            }
        }
        return ids;
    }
}
