package dev.verbs4j.conformance.report;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Case ids as the report builds them, for generated cases in particular (run here on a private launcher). */
class ConformanceReportListenerTest {
    private static final String MATRIX = "dev.verbs4j.conformance.access.RemoteAccessMatrixTest";

    /** A conformance factory: its dynamic tests carry no tags of their own. */
    @Tag(ConformanceReportListener.TAG)
    static class TaggedFactory {
        @TestFactory
        Stream<DynamicTest> cases() {
            return Stream.of("write.mw2.firstByteBeforeWindow", "sendInv.fr.validKey").map(key ->
                    DynamicTest.dynamicTest("display name citing C9-88", URI.create("method:" + MATRIX + "#" + key), () -> { }));
        }
    }

    /** The same factory without the tag: not a conformance case. */
    static class UntaggedFactory {
        @TestFactory
        Stream<DynamicTest> cases() {
            return Stream.of(DynamicTest.dynamicTest("other", URI.create("method:" + MATRIX + "#other"), () -> { }));
        }
    }

    @Test
    void generatedCaseOfTaggedFactoryIsNamedByItsMethodSource() {
        assertEquals(List.of("access/RemoteAccessMatrixTest#write.mw2.firstByteBeforeWindow",
                "access/RemoteAccessMatrixTest#sendInv.fr.validKey"), caseIdsOfTests(TaggedFactory.class));
    }

    @Test
    void generatedCaseOfUntaggedFactoryIsNotACase() {
        assertEquals(List.of(), caseIdsOfTests(UntaggedFactory.class));
    }

    /** Runs {@code factory} without the listeners the class path registers, and returns the case id of every test. */
    private static List<String> caseIdsOfTests(Class<?> factory) {
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false).build());
        List<String> ids = new ArrayList<>();
        List<TestIdentifier> tests = new ArrayList<>();
        TestPlan[] plan = new TestPlan[1];
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(DiscoverySelectors.selectClass(factory)).build(),
                new TestExecutionListener() {
                    @Override
                    public void testPlanExecutionStarted(TestPlan testPlan) {
                        plan[0] = testPlan;
                    }

                    @Override
                    public void executionStarted(TestIdentifier id) {
                        if (id.isTest()) {
                            tests.add(id);
                            ConformanceReportListener.caseId(id, plan[0]::getParent).ifPresent(ids::add);
                        }
                    }
                });
        assertTrue(tests.size() > 0, "the factory generated tests");
        tests.forEach(t -> assertTrue(t.getTags().isEmpty(), "a dynamic test has no tags of its own: " + t));
        return ids;
    }
}
