package dev.verbs4j.docker;

import com.github.dockerjava.api.model.ContainerNetwork;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the two-container tests share, whichever side runs the suite: two containers of the image on
 * one user-defined Docker network, each in its own network namespace; one tmpfs folder of the host
 * bound at {@value #SHARED_IN_CONTAINER} in both, where the suite and the agent map the cases' memory.
 * The agent's container starts first and is waited for until it listens on its {@code eth0}; the
 * suite's container then runs to the end, and its report is copied and judged like
 * {@link RxeConformanceContainerTest}'s.
 * <p>
 * The ibverbs side is privileged: its entrypoint creates {@code rxe0} on its own {@code eth0} and
 * deletes it when it ends. The soft side needs no privileges: a soft device on its {@code eth0}
 * address, with the kernel's FLUSH ICRC variant on, as in the bare cross-provider columns.
 */
final class TwoContainers {
    static final int AGENT_PORT = 18601;
    static final String SHARED_IN_CONTAINER = "/shared";
    private static final String AGENT_LISTENING = "verbs4j conformance agent listening on ";
    private static final String IBVERBS_DEVICE = "rxe0";
    private static final String SOFT_DEVICE = "soft0";

    private TwoContainers() {
    }

    /** Which container runs the suite; the other runs the agent. */
    enum SuiteSide {
        /** The ibverbs container runs the suite, the soft one the agent: the requests under test go out on the kernel's rxe. */
        IBVERBS("two containers (ibverbs rxe -> soft)"),
        /** The soft container runs the suite, the ibverbs one the agent: the requests under test go out on the soft engine. */
        SOFT("two containers (soft -> ibverbs rxe)");

        private final String what;

        SuiteSide(String what) {
            this.what = what;
        }
    }

    /**
     * Runs the suite on {@code suiteSide} against the agent on the other side, with the extra ConformanceMain options
     * of {@link ModulePaths#suiteArgs()}, under {@code label}; requires a report whose failures are all listed findings.
     */
    static void runAndJudge(SuiteSide suiteSide, String label) throws Exception {
        skipUnlessReady();
        Path lib = ModulePaths.imageDir().resolve("lib");
        assertTrue(RxeConformanceContainerTest.containsSuiteJar(lib), lib + " has no verbs4j-conformance jar: run 'mvn -pl docker package' first");
        long start = System.nanoTime();
        String image = ModulePaths.builtImage().isPresent() ? ModulePaths.builtImage().get() : RxeConformanceContainerTest.buildImage(lib);
        long built = System.nanoTime();
        Path reportDir = ModulePaths.reportDir().resolve("two-containers");
        Path shared = Files.createTempDirectory(Path.of("/dev/shm"), "verbs4j-containers-");
        try (Network network = Network.newNetwork();
             GenericContainer<?> agent = new GenericContainer<>(DockerImageName.parse(image));
             GenericContainer<?> suite = new GenericContainer<>(DockerImageName.parse(image))) {
            for (GenericContainer<?> container : List.of(agent, suite)) {
                container.withNetwork(network).withFileSystemBind(shared.toString(), SHARED_IN_CONTAINER, BindMode.READ_WRITE);
            }
            boolean ibverbsAgent = suiteSide == SuiteSide.SOFT;
            String agentName = ibverbsAgent ? "rxe" : "soft";
            String suiteName = ibverbsAgent ? "soft" : "rxe";
            if (ibverbsAgent) {
                ibverbsSide(agent).withEnv("CONFORMANCE_ROLE", "agent").withEnv("AGENT_PORT", Integer.toString(AGENT_PORT));
            } else {
                softSide(agent, "dev.verbs4j.conformance.agent.AgentMain --listen $address:" + AGENT_PORT);
            }
            agent.withLogConsumer(frame -> print("[" + agentName + " container] ", frame))
                    .waitingFor(Wait.forLogMessage("(?s).*" + AGENT_LISTENING + ".*", 1).withStartupTimeout(Duration.ofMinutes(5)));
            agent.start();
            String agentAddress = address(agent) + ":" + AGENT_PORT;
            long agentUp = System.nanoTime();

            List<String> args = new ArrayList<>(ModulePaths.suiteArgs());
            args.addAll(List.of("--peer-provider", ibverbsAgent ? "ibverbs" : "soft", "--peer-device", ibverbsAgent ? IBVERBS_DEVICE : SOFT_DEVICE,
                    "--peer-agent", agentAddress, "--shared-folder", SHARED_IN_CONTAINER));
            if (ibverbsAgent) {
                args.addAll(0, List.of("--provider", "soft", "--device", SOFT_DEVICE));
                args.addAll(List.of("--label", label, "--report-dir", RxeConformanceContainerTest.REPORT_IN_CONTAINER));
                softSide(suite, "dev.verbs4j.conformance.ConformanceMain \"$@\"", args);
            } else {
                ibverbsSide(suite).withEnv("CONFORMANCE_LABEL", label).withCommand(args.toArray(String[]::new));
            }
            suite.withLogConsumer(frame -> print("[" + suiteName + " container] ", frame))
                    .withStartupCheckStrategy(new RxeConformanceContainerTest.RunsToCompletion().withTimeout(ModulePaths.timeout()));
            System.out.println("[rxe container] agent at " + agentAddress + " in the " + agentName + " container on network "
                    + network.getId() + "; the suite in the " + suiteName + " container: " + String.join(" ", args));
            suite.start();
            long exitStatus = suite.getCurrentContainerInfo().getState().getExitCodeLong();
            RxeConformanceContainerTest.copyReport(suite.getDockerClient(), suite.getContainerId(), reportDir);
            System.out.printf("[rxe container] two containers: image %.1f s, %s agent up %.1f s, %s suite container %.1f s%n",
                    seconds(built - start), agentName, seconds(agentUp - built), suiteName,
                    seconds(System.nanoTime() - agentUp));
            assertTrue(exitStatus == 0 || exitStatus == 1,
                    "the suite did not run to the end in the " + suiteName + " container (status " + exitStatus + "); report in " + reportDir);
        } finally {
            deleteQuietly(shared);
        }
        RxeConformanceContainerTest.judgeReport(reportDir, label, suiteSide.what);
    }

    /**
     * Skips, printing why, where the kernel has no rxe, no Docker daemon answers, or the kernel's rxe has no
     * per-network-namespace sockets ({@link RxeNamespaceCheck}): there an rxe device works only in a container on the
     * host network.
     */
    private static void skipUnlessReady() {
        // Before Docker is asked anything: a kernel whose rxe cannot work in a container's namespace ends it at once.
        if (KernelRxeCheck.onThisHost().ready()) {
            HostCheck namespaces = RxeNamespaceCheck.onThisHost();
            if (!namespaces.ready()) {
                RxeConformanceContainerTest.skip(namespaces.detail());
            }
        }
        RxeConformanceContainerTest.skipUnlessThisHostCanRunIt();
        System.out.println("[rxe container] " + RxeNamespaceCheck.onThisHost().detail());
    }

    /** The privileged container whose entrypoint creates rxe0 on its own eth0. */
    private static GenericContainer<?> ibverbsSide(GenericContainer<?> container) {
        return container.withPrivilegedMode(true).withEnv(ModulePaths.containerEnv()).withEnv("RXE_NETDEV", "eth0");
    }

    /**
     * The unprivileged container that runs {@code main} (a class and its options, in bash's words: {@code $address} is
     * the container's eth0 address, {@code "$@"} are {@code args}) with the soft provider's device on that address.
     */
    private static void softSide(GenericContainer<?> container, String main, List<String> args) {
        String script = String.join("\n",
                "set -eu",
                "address=$(ip -4 -o addr show dev eth0 | awk '{ split($4, a, \"/\"); print a[1]; exit }')",
                "echo \"soft side on eth0 $address\"",
                "exec java --enable-native-access=ALL-UNNAMED -Dverbs4j.soft.devices=" + SOFT_DEVICE + "=$address"
                        + " -Dverbs4j.soft.rxeFlushIcrc=true -cp '/opt/verbs4j/lib/*' " + main);
        List<String> command = new ArrayList<>(List.of(script, "soft-side"));
        command.addAll(args); // bash -c SCRIPT NAME ARGS...: the arguments reach the script as "$@", unexpanded
        container.withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/usr/bin/tini", "-g", "--", "bash", "-c"))
                .withCommand(command.toArray(String[]::new)) // the one-string form would split the script
                .withEnv(javaOptions());
    }

    private static void softSide(GenericContainer<?> container, String main) {
        softSide(container, main, List.of());
    }

    private static Map<String, String> javaOptions() {
        String options = ModulePaths.containerEnv().get("JAVA_TOOL_OPTIONS");
        return options == null ? Map.of() : Map.of("JAVA_TOOL_OPTIONS", options);
    }

    /** The container's address on its only network. */
    private static String address(GenericContainer<?> container) {
        Map<String, ContainerNetwork> networks = container.getContainerInfo().getNetworkSettings().getNetworks();
        assertTrue(networks.size() == 1, "expected one network, found " + networks.keySet());
        return networks.values().iterator().next().getIpAddress();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static void print(String prefix, OutputFrame frame) {
        if (frame.getType() != OutputFrame.OutputType.END) {
            System.out.println(prefix + frame.getUtf8StringWithoutLineEnding());
        }
    }

    /** The containers write as root: a test run as another user may be unable to remove their files from tmpfs. */
    private static void deleteQuietly(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.out.println("[rxe container] could not remove " + folder + ": " + e.getMessage());
        }
    }
}
