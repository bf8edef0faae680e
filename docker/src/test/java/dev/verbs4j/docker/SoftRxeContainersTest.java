package dev.verbs4j.docker;

import org.junit.jupiter.api.Test;

/**
 * The cross-provider suite between two containers on one Docker network, each in its own network namespace: the
 * ibverbs container creates an rxe device on its own {@code eth0} and runs the suite (the requests under test posted
 * on the kernel's rxe), the soft container runs the conformance agent with the soft provider on its {@code eth0} (the
 * remote side), as the {@code rxe-to-soft} column does with a network namespace and a veth pair. The other direction
 * is {@link SoftToRxeContainersTest}; what both share, and when they skip, is {@link TwoContainers}.
 */
public class SoftRxeContainersTest {
    @Test
    void crossProviderSuitePassesBetweenAnIbverbsAndASoftContainer() throws Exception {
        TwoContainers.runAndJudge(TwoContainers.SuiteSide.IBVERBS, ModulePaths.containersLabel("rxe-to-soft-containers"));
    }

    /** Runs this test with the JUnit launcher without Maven (the micro-VM); 0 passed, 2 skipped, else 1. */
    public static void main(String[] args) {
        System.exit(RxeConformanceContainerTest.runWithLauncher(SoftRxeContainersTest.class));
    }
}
