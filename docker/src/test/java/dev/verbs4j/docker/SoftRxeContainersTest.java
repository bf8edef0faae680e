package dev.verbs4j.docker;

import com.github.dockerjava.api.model.ContainerNetwork;
import org.junit.jupiter.api.Test;
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
 * The cross-provider suite between two containers on one Docker network, each in its own network
 * namespace: the ibverbs container creates an rxe device on its own {@code eth0} and runs the suite
 * (the requests under test posted on the kernel's rxe), the soft container runs the conformance
 * agent with the soft provider on its {@code eth0} (the remote side), as the {@code rxe-to-soft}
 * column does with a network namespace and a veth pair. Both map the cases' memory from one tmpfs
 * folder of the host, bound into each. The report is judged like {@link RxeConformanceContainerTest}'s.
 * <p>
 * Skipped, with the reason printed, where that test is, and on kernels whose {@code rdma_rxe} has no
 * per-network-namespace sockets ({@link RxeNamespaceCheck}): there an rxe device works only in a
 * container on the host network.
 */
public class SoftRxeContainersTest {
    private static final int AGENT_PORT = 18601;
    private static final String SHARED_IN_CONTAINER = "/shared";
    private static final String AGENT_LISTENING = "verbs4j conformance agent listening on ";
    /** The soft container's command: the agent, its soft device and its listener on the container's own address. */
    private static final String SOFT_AGENT = String.join("\n",
            "set -eu",
            "address=$(ip -4 -o addr show dev eth0 | awk '{ split($4, a, \"/\"); print a[1]; exit }')",
            "echo \"soft side on eth0 $address\"",
            "exec java --enable-native-access=ALL-UNNAMED -Dverbs4j.soft.devices=soft0=$address"
                    + " -Dverbs4j.soft.rxeFlushIcrc=true -cp '/opt/verbs4j/lib/*' dev.verbs4j.conformance.agent.AgentMain"
                    + " --listen $address:" + AGENT_PORT);

    @Test
    void crossProviderSuitePassesBetweenAnIbverbsAndASoftContainer() throws Exception {
        // Before Docker is asked anything: a kernel whose rxe cannot work in a container's namespace ends it at once.
        if (KernelRxeCheck.onThisHost().ready()) {
            HostCheck namespaces = RxeNamespaceCheck.onThisHost();
            if (!namespaces.ready()) {
                RxeConformanceContainerTest.skip(namespaces.detail());
            }
        }
        RxeConformanceContainerTest.skipUnlessThisHostCanRunIt();
        HostCheck namespaces = RxeNamespaceCheck.onThisHost();
        System.out.println("[rxe container] " + namespaces.detail());
        Path lib = ModulePaths.imageDir().resolve("lib");
        assertTrue(RxeConformanceContainerTest.containsSuiteJar(lib), lib + " has no verbs4j-conformance jar: run 'mvn -pl docker package' first");
        long start = System.nanoTime();
        String image = ModulePaths.builtImage().isPresent() ? ModulePaths.builtImage().get() : RxeConformanceContainerTest.buildImage(lib);
        long built = System.nanoTime();

        String label = ModulePaths.containersLabel();
        Path reportDir = ModulePaths.reportDir().resolve("two-containers");
        Path shared = Files.createTempDirectory(Path.of("/dev/shm"), "verbs4j-containers-");
        try (Network network = Network.newNetwork();
             GenericContainer<?> soft = new GenericContainer<>(DockerImageName.parse(image));
             GenericContainer<?> rxe = new GenericContainer<>(DockerImageName.parse(image))) {
            soft.withNetwork(network)
                    .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/usr/bin/tini", "-g", "--", "bash", "-c"))
                    .withCommand(new String[] {SOFT_AGENT}) // one argument of bash -c; the one-string form would split it
                    .withEnv(javaOptions())
                    .withFileSystemBind(shared.toString(), SHARED_IN_CONTAINER, BindMode.READ_WRITE)
                    .withLogConsumer(frame -> print("[soft container] ", frame))
                    .waitingFor(Wait.forLogMessage("(?s).*" + AGENT_LISTENING + ".*", 1).withStartupTimeout(Duration.ofMinutes(5)));
            soft.start();
            String softAddress = address(soft);
            long agentUp = System.nanoTime();

            List<String> args = new ArrayList<>(ModulePaths.suiteArgs());
            args.addAll(List.of("--peer-provider", "soft", "--peer-device", "soft0", "--peer-agent", softAddress + ":" + AGENT_PORT,
                    "--shared-folder", SHARED_IN_CONTAINER));
            rxe.withNetwork(network)
                    .withPrivilegedMode(true)
                    .withEnv(ModulePaths.containerEnv())
                    .withEnv("RXE_NETDEV", "eth0")
                    .withEnv("CONFORMANCE_LABEL", label)
                    .withFileSystemBind(shared.toString(), SHARED_IN_CONTAINER, BindMode.READ_WRITE)
                    .withCommand(args.toArray(String[]::new))
                    .withLogConsumer(frame -> print("[rxe container] ", frame))
                    .withStartupCheckStrategy(new RxeConformanceContainerTest.RunsToCompletion().withTimeout(ModulePaths.timeout()));
            System.out.println("[rxe container] soft agent at " + softAddress + ":" + AGENT_PORT + " on network " + network.getId()
                    + "; the suite in the ibverbs container: " + String.join(" ", args));
            rxe.start();
            long exitStatus = rxe.getCurrentContainerInfo().getState().getExitCodeLong();
            RxeConformanceContainerTest.copyReport(rxe.getDockerClient(), rxe.getContainerId(), reportDir);
            System.out.printf("[rxe container] two containers: image %.1f s, soft agent up %.1f s, suite container %.1f s%n",
                    seconds(built - start), seconds(agentUp - built), seconds(System.nanoTime() - agentUp));
            assertTrue(exitStatus == 0 || exitStatus == 1,
                    "the suite did not run to the end in the ibverbs container (status " + exitStatus + "); report in " + reportDir);
        } finally {
            deleteQuietly(shared);
        }
        RxeConformanceContainerTest.judgeReport(reportDir, label, "two containers (ibverbs rxe -> soft)");
    }

    /** Runs this test with the JUnit launcher without Maven (the micro-VM); 0 passed, 2 skipped, else 1. */
    public static void main(String[] args) {
        System.exit(RxeConformanceContainerTest.runWithLauncher(SoftRxeContainersTest.class));
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
