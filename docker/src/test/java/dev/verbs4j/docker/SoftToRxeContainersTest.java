package dev.verbs4j.docker;

import org.junit.jupiter.api.Test;

/**
 * {@link SoftRxeContainersTest} the other way round: the soft container runs the suite (the requests under test posted
 * on the soft engine), the privileged ibverbs container the conformance agent on the rxe device of its own
 * {@code eth0} (its entrypoint with {@code CONFORMANCE_ROLE=agent}), as the {@code soft-to-rxe} column does between
 * two network namespaces. Together the two tests give each container both roles, suite and agent.
 */
public class SoftToRxeContainersTest {
    @Test
    void crossProviderSuitePassesBetweenASoftAndAnIbverbsContainer() throws Exception {
        TwoContainers.runAndJudge(TwoContainers.SuiteSide.SOFT, ModulePaths.containersLabel("soft-to-rxe-containers"));
    }

    /** Runs this test with the JUnit launcher without Maven (the micro-VM); 0 passed, 2 skipped, else 1. */
    public static void main(String[] args) {
        System.exit(RxeConformanceContainerTest.runWithLauncher(SoftToRxeContainersTest.class));
    }
}
