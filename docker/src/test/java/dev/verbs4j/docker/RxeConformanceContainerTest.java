package dev.verbs4j.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import dev.verbs4j.conformance.report.Findings;
import dev.verbs4j.conformance.report.Outcome;
import dev.verbs4j.conformance.report.ReportJson;
import dev.verbs4j.conformance.report.RunReport;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance suite against the ibverbs provider on the kernel's own Soft-RoCE: builds
 * the image from this module's Dockerfile and {@code target/image}, runs it privileged on
 * the host network (its entrypoint creates the rxe device and runs the suite), copies the
 * report to {@code target/conformance-report} and requires at least one case passed and no
 * failed case that the bundled findings lists ({@code conformance-tests/findings}) do not name
 * for the running kernel: what the kernel's rxe is known to do differently fails the suite
 * (exit status 1) on every kernel that has it.
 * <p>
 * Skipped, with the reason printed, where the host's kernel has no {@code rdma_rxe}
 * loaded or no Docker daemon answers: both are checked in milliseconds before
 * Testcontainers is touched, so such hosts neither wait for Docker discovery nor pull.
 */
public class RxeConformanceContainerTest {
    private static final String IMAGE = "verbs4j/rxe-conformance:local";
    static final String REPORT_IN_CONTAINER = "/report";
    private static final Duration DOCKER_PING_TIMEOUT = Duration.ofSeconds(3);

    @Test
    void conformanceSuitePassesOnTheKernelRxe() throws Exception {
        skipUnlessThisHostCanRunIt();
        Path lib = ModulePaths.imageDir().resolve("lib");
        assertTrue(containsSuiteJar(lib), lib + " has no verbs4j-conformance jar: run 'mvn -pl docker package' first");

        String image = buildImage(lib);
        Path reportDir = ModulePaths.reportDir();
        try (GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))) {
            container.withPrivilegedMode(true)
                    .withNetworkMode("host")
                    .withEnv("CONFORMANCE_LABEL", ModulePaths.label())
                    .withEnv(ModulePaths.containerEnv())
                    .withLogConsumer(RxeConformanceContainerTest::print)
                    .withStartupCheckStrategy(new RunsToCompletion().withTimeout(ModulePaths.timeout()));
            if (!ModulePaths.suiteArgs().isEmpty()) {
                container.withCommand(ModulePaths.suiteArgs().toArray(String[]::new));
            }
            container.start();
            long exitStatus = container.getCurrentContainerInfo().getState().getExitCodeLong();
            copyReport(container.getDockerClient(), container.getContainerId(), reportDir);

            // 0: no case failed; 1: some failed, which is accepted below when each is a listed finding.
            assertTrue(exitStatus == 0 || exitStatus == 1,
                    "the suite did not run to the end in the container (status " + exitStatus + "); report in " + reportDir);
        }
        judgeReport(reportDir, ModulePaths.label(), "kernel rxe");
    }

    /**
     * Requires the report {@code <label>.json} in reportDir, at least one passed case, and no failed case
     * that the bundled findings lists do not name for the run's sides and kernel; prints the counts.
     */
    static void judgeReport(Path reportDir, String label, String what) throws IOException {
        Path json = reportDir.resolve(label + ".json");
        assertTrue(Files.isRegularFile(json), "no report " + json);
        RunReport run = ReportJson.read(Files.readString(json));
        Findings findings = Findings.bundled();
        List<String> unexplained = run.cases().stream()
                .filter(c -> c.outcome() == Outcome.FAIL && findings.reason(run, c) == null)
                .map(c -> c.id() + ": " + c.detail()).toList();
        System.out.printf("%s: %d passed, %d failed (%d of them listed findings of kernel %s), %d skipped; report in %s%n",
                what, run.count(Outcome.PASS), run.count(Outcome.FAIL), findings.count(run), run.kernel(), run.count(Outcome.SKIP), reportDir);
        unexplained.forEach(c -> System.out.println("[rxe container] FAILED, not a listed finding: " + c));
        assertTrue(run.count(Outcome.PASS) > 0, "no case passed (" + what + "): see " + json);
        assertTrue(unexplained.isEmpty(), unexplained.size() + " cases failed that no findings list names (printed above); see " + json);
    }

    /**
     * Runs this test with the JUnit launcher and prints what happened, for a machine that has the built
     * class path but no Maven run (the micro-VM, {@code scripts/vm-guest-docker.sh}); exit status 0 only
     * when it passed, 2 when it was skipped.
     */
    public static void main(String[] args) {
        System.exit(runWithLauncher(RxeConformanceContainerTest.class));
    }

    /** Runs a test class with the JUnit launcher and prints the summary; 0 when it passed, 2 when skipped, else 1. */
    static int runWithLauncher(Class<?> testClass) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(testClass)).build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printTo(out);
        summary.printFailuresTo(out, 30);
        if (summary.getTotalFailureCount() > 0 || summary.getTestsStartedCount() == 0) {
            return 1;
        }
        return summary.getTestsSucceededCount() > 0 ? 0 : 2;
    }

    /** Aborts the test, printing why, unless the host kernel has rdma_rxe and a Docker daemon answers. */
    static void skipUnlessThisHostCanRunIt() {
        HostCheck kernel = KernelRxeCheck.onThisHost();
        HostCheck docker = DockerEndpointCheck.onThisHost(DOCKER_PING_TIMEOUT);
        List<String> missing = Stream.of(kernel, docker).filter(check -> !check.ready()).map(HostCheck::detail).toList();
        if (!missing.isEmpty()) {
            skip(String.join("; ", missing));
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            skip(docker.detail() + ", but Testcontainers cannot use it (its log above says why)");
        }
        System.out.println("[rxe container] " + kernel.detail() + "; " + docker.detail());
    }

    static void skip(String reason) {
        System.out.println("[rxe container] SKIPPED: " + reason);
        Assumptions.abort(reason);
    }

    static boolean containsSuiteJar(Path lib) throws IOException {
        if (!Files.isDirectory(lib)) {
            return false;
        }
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.anyMatch(p -> p.getFileName().toString().startsWith("verbs4j-conformance-"));
        }
    }

    /** Builds (or reuses from Docker's layer cache) the image; kept after the run so the next build is quick. */
    static String buildImage(Path lib) throws Exception {
        Path context = ModulePaths.contextDir();
        ImageFromDockerfile image = new ImageFromDockerfile(IMAGE, false)
                .withFileFromPath("Dockerfile", context.resolve("Dockerfile"))
                .withFileFromPath("entrypoint.sh", context.resolve("entrypoint.sh"))
                .withFileFromPath("target/image/lib", lib);
        ModulePaths.baseImage().ifPresent(base -> image.withBuildArg("BASE_IMAGE", base));
        // apt-get in the build uses the host's network, as the container does: a daemon run without
        // a bridge (dockerd --bridge=none) has no other network to give it.
        // --cache-from: a daemon without the Debian archive (the micro-VM's) reuses the package layer of an
        // image built elsewhere and loaded (rxe-vm/docker-image.sh), and only copies the class path.
        Set<String> cacheFrom = Set.copyOf(ModulePaths.cacheFrom());
        image.withBuildImageCmdModifier(build -> {
            build.withNetworkMode("host");
            if (!cacheFrom.isEmpty()) {
                build.withCacheFrom(cacheFrom);
            }
        });
        return image.get(ModulePaths.timeout().toMinutes(), TimeUnit.MINUTES);
    }

    /** Copies the container's report folder, which Docker hands out as a tar of {@code report/...}. */
    static void copyReport(DockerClient docker, String containerId, Path target) throws IOException {
        Files.createDirectories(target);
        try (InputStream archive = docker.copyArchiveFromContainerCmd(containerId, REPORT_IN_CONTAINER).exec();
             TarArchiveInputStream tar = new TarArchiveInputStream(archive)) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                String name = entry.getName();
                int slash = name.indexOf('/');
                if (entry.isDirectory() || slash < 0 || slash == name.length() - 1) {
                    continue;
                }
                Path file = target.resolve(name.substring(slash + 1)).normalize();
                if (!file.startsWith(target)) {
                    throw new IOException("report entry outside the report folder: " + name);
                }
                Files.createDirectories(file.getParent());
                Files.copy(tar, file, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        System.out.println("[rxe container] report copied to " + target);
    }

    private static void print(OutputFrame frame) {
        if (frame.getType() != OutputFrame.OutputType.END) {
            System.out.println("[rxe container] " + frame.getUtf8StringWithoutLineEnding());
        }
    }

    /**
     * "Started" means "ran to the end": the container is a batch job, and its exit status
     * is judged after the report is copied, so a failing suite still leaves its report.
     */
    static final class RunsToCompletion extends StartupCheckStrategy {
        @Override
        public StartupStatus checkStartupState(DockerClient docker, String containerId) {
            InspectContainerResponse.ContainerState state = getCurrentState(docker, containerId);
            String status = state.getStatus();
            return "exited".equals(status) || "dead".equals(status) ? StartupStatus.SUCCESSFUL : StartupStatus.NOT_YET_KNOWN;
        }
    }
}
