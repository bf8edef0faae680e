package dev.verbs4j.docker;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The image's entrypoint, run on this host with stand-ins for {@code ip}, {@code rdma},
 * {@code mknod}, {@code ibv_devinfo} and {@code java} that record their arguments, and
 * a fake sysfs: what it creates, what it runs, what it cleans up, and which status it
 * exits with.
 */
class EntrypointScriptTest {
    private static final String DEVICE_ON_INTERFACE = "link rxe7/1 state ACTIVE physical_state LINK_UP netdev ens5";

    @TempDir
    Path work;
    private Path bin;
    private Path sysfs;
    private Path log;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void stubs() throws IOException {
        bin = Files.createDirectories(work.resolve("bin"));
        sysfs = Files.createDirectories(work.resolve("sys"));
        log = work.resolve("calls.log");
        Files.createFile(log);
        stub("ip", """
                echo "ip $*" >>"$STUB_LOG"
                case "$*" in
                    "-4 -o addr show dev "*) echo "2: ${*: -1}    inet 192.0.2.10/24 brd 192.0.2.255 scope global ${*: -1}" ;;
                    *) echo "default via 192.0.2.1 dev ens5 proto dhcp src 192.0.2.10 metric 100" ;;
                esac
                """);
        // Lays out sysfs the way rdma_rxe and ib_uverbs do for a new device.
        stub("fake-device", """
                dev=$SYSFS_ROOT/class/infiniband/$1
                mkdir -p "$dev/ports/1/gids" "$SYSFS_ROOT/class/infiniband_verbs/$2"
                echo "4: ACTIVE" >"$dev/ports/1/state"
                echo "fe80:0000:0000:0000:0200:00ff:fe00:0001" >"$dev/ports/1/gids/0"
                echo "0000:0000:0000:0000:0000:ffff:c000:020a" >"$dev/ports/1/gids/1"
                echo "$1" >"$SYSFS_ROOT/class/infiniband_verbs/$2/ibdev"
                echo "231:192" >"$SYSFS_ROOT/class/infiniband_verbs/$2/dev"
                """);
        stub("rdma", """
                echo "rdma $*" >>"$STUB_LOG"
                # STUB_NO_RDMA: what rdma says where the kernel has no RDMA netlink.
                if [ -n "${STUB_NO_RDMA:-}" ]; then echo "Failed to open NETLINK_RDMA socket" >&2; exit 1; fi
                case "$1 $2" in
                    "link show") [ -z "${STUB_LINKS:-}" ] || echo "$STUB_LINKS" ;;
                    "link add") fake-device "$3" uverbs0 ;;
                esac
                """);
        stub("mknod", "echo \"mknod $*\" >>\"$STUB_LOG\"\n");
        stub("ibv_devinfo", """
                echo "ibv_devinfo $*" >>"$STUB_LOG"
                echo "hca_id: $3"
                echo "	transport: InfiniBand (0)"
                """);
        stub("java", """
                echo "java $*" >>"$STUB_LOG"
                if [ -n "${STUB_JAVA_RUNS_LONG:-}" ]; then exec sleep 60; fi
                exit "${STUB_JAVA_STATUS:-0}"
                """);
        env.put("PATH", bin + ":/usr/bin:/bin");
        env.put("STUB_LOG", log.toString());
        env.put("SYSFS_ROOT", sysfs.toString());
        env.put("RDMA_CDEV_DIR", work.resolve("dev/infiniband").toString());
        env.put("REPORT_DIR", work.resolve("report").toString());
        env.put("VERBS4J_LIB", "/opt/verbs4j/lib");
        env.put("JAVA", bin.resolve("java").toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void exitsWithTheSuitesStatus(int suiteStatus) throws Exception {
        env.put("STUB_JAVA_STATUS", Integer.toString(suiteStatus));

        Run run = run();

        assertEquals(suiteStatus, run.status(), run.output());
    }

    @Test
    void createsTheDeviceOnTheDefaultRouteInterfaceAndDeletesItAfterAFailedRun() throws Exception {
        env.put("STUB_JAVA_STATUS", "1");

        Run run = run();

        assertEquals(1, run.status(), run.output());
        List<String> order = calls().stream().filter(c -> c.startsWith("rdma link a") || c.startsWith("rdma link d")
                || c.startsWith("java ")).map(c -> c.startsWith("java ") ? "java" : c).toList();
        assertEquals(List.of("rdma link add rxe0 type rxe netdev ens5", "java", "rdma link delete rxe0"), order);
    }

    @Test
    void aStopEndsTheRunAndDeletesTheCreatedDevice() throws Exception {
        env.put("STUB_JAVA_RUNS_LONG", "1");
        Process process = start();
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (calls().stream().noneMatch(c -> c.startsWith("java ")) && System.nanoTime() < deadlineNs) {
            Thread.sleep(20);
        }
        boolean suiteStarted = calls().stream().anyMatch(c -> c.startsWith("java "));

        // What tini -g does on `docker stop`: SIGTERM to the script and to the suite.
        process.destroy();
        process.descendants().forEach(ProcessHandle::destroy);

        // A stop before the suite started would test the device's set-up being cut short instead.
        assertTrue(suiteStarted, "the suite (stub java) had not started after 20 s: " + calls());
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "entrypoint.sh did not stop");
        assertEquals(143, process.exitValue(), output());
        assertEquals("rdma link delete rxe0", call("rdma link delete"));
    }

    @Test
    void runsTheSuiteAgainstTheIbverbsProviderOnBothSidesOfTheDevice() throws Exception {
        Run run = run("--select", "base");

        assertEquals(0, run.status(), run.output());
        String java = call("java");
        assertTrue(java.endsWith(" dev.verbs4j.conformance.ConformanceMain --provider ibverbs --device rxe0 --peer-device rxe0"
                + " --label ibverbs-kernel-rxe --report-dir " + work.resolve("report") + " --select base"), java);
    }

    @Test
    void theAgentRoleServesTheDeviceOnTheInterfacesAddressAndDeletesItAfterTheSession() throws Exception {
        env.put("CONFORMANCE_ROLE", "agent");
        env.put("RXE_NETDEV", "eth0");
        env.put("AGENT_PORT", "18700");

        Run run = run();

        assertEquals(0, run.status(), run.output());
        assertTrue(call("java").endsWith(" dev.verbs4j.conformance.agent.AgentMain --listen 192.0.2.10:18700"), call("java"));
        List<String> order = calls().stream().filter(c -> c.startsWith("rdma link a") || c.startsWith("rdma link d")
                || c.startsWith("java ")).map(c -> c.startsWith("java ") ? "java" : c).toList();
        assertEquals(List.of("rdma link add rxe0 type rxe netdev eth0", "java", "rdma link delete rxe0"), order);
    }

    @Test
    void anUnknownRoleIsAUsageError() throws Exception {
        env.put("CONFORMANCE_ROLE", "server");

        Run run = run();

        assertEquals(2, run.status(), run.output());
        assertFalse(calls().stream().anyMatch(c -> c.startsWith("rdma link add") || c.startsWith("java")), calls().toString());
    }

    @Test
    void makesTheMissingUverbsNodeFromTheNumbersInSysfs() throws Exception {
        Run run = run();

        assertEquals(0, run.status(), run.output());
        assertEquals("mknod -m 0666 " + work.resolve("dev/infiniband/uverbs0") + " c 231 192", call("mknod"));
    }

    @Test
    void usesAnExistingDeviceAndLeavesItInPlace() throws Exception {
        fakeDevice("rxe0", "uverbs3");

        Run run = run();

        assertEquals(0, run.status(), run.output());
        assertFalse(calls().stream().anyMatch(c -> c.startsWith("rdma link add") || c.startsWith("rdma link delete")),
                calls().toString());
        assertEquals("mknod -m 0666 " + work.resolve("dev/infiniband/uverbs3") + " c 231 192", call("mknod"));
    }

    @Test
    void usesTheRxeDeviceAlreadyOnTheInterfaceUnderItsOwnName() throws Exception {
        fakeDevice("rxe7", "uverbs0");
        env.put("STUB_LINKS", DEVICE_ON_INTERFACE);

        Run run = run();

        assertEquals(0, run.status(), run.output());
        assertTrue(call("java").contains("--device rxe7 --peer-device rxe7"), call("java"));
        assertFalse(calls().stream().anyMatch(c -> c.startsWith("rdma link add") || c.startsWith("rdma link delete")),
                calls().toString());
    }

    @Test
    void theInterfaceCanBeChosen() throws Exception {
        env.put("RXE_NETDEV", "veth1");

        Run run = run();

        assertEquals(0, run.status(), run.output());
        assertEquals("rdma link add rxe0 type rxe netdev veth1", call("rdma link add"));
    }

    @Test
    void stopsWithTheSetupStatusAndAHintWhereTheKernelHasNoRdma() throws Exception {
        env.put("STUB_NO_RDMA", "1");

        Run run = run();

        assertEquals(3, run.status(), run.output());
        assertTrue(run.output().contains("cannot create rxe0 on ens5"), run.output());
        assertTrue(run.output().contains("sudo modprobe rdma_rxe"), run.output());
        assertTrue(Files.isDirectory(work.resolve("report")), "no report folder for the collector");
        assertFalse(calls().stream().anyMatch(c -> c.startsWith("java") || c.startsWith("rdma link delete")),
                calls().toString());
    }

    @Test
    void keepsTheDeviceDescriptionInTheReport() throws Exception {
        Run run = run();

        assertEquals(0, run.status(), run.output());
        assertEquals("ibv_devinfo -v -d rxe0", call("ibv_devinfo"));
        assertTrue(Files.readString(work.resolve("report/ibv_devinfo.txt")).startsWith("hca_id: rxe0\n"));
    }

    private record Run(int status, String output) {
    }

    private Run run(String... args) throws IOException, InterruptedException {
        Process process = start(args);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "entrypoint.sh did not finish");
        return new Run(process.exitValue(), output());
    }

    private Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", ModulePaths.contextDir().resolve("entrypoint.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve("output.log").toFile()).directory(work.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        return builder.start();
    }

    private String output() throws IOException {
        return Files.readString(work.resolve("output.log"));
    }

    private void fakeDevice(String name, String uverbs) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("bash", bin.resolve("fake-device").toString(), name, uverbs);
        builder.environment().putAll(env);
        assertEquals(0, builder.inheritIO().start().waitFor());
    }

    private List<String> calls() throws IOException {
        return Files.readAllLines(log);
    }

    /** The one recorded call that starts with {@code prefix}. */
    private String call(String prefix) throws IOException {
        List<String> matching = calls().stream().filter(c -> c.startsWith(prefix)).toList();
        assertEquals(1, matching.size(), "calls starting with '" + prefix + "': " + calls());
        return matching.getFirst();
    }

    private void stub(String name, String body) throws IOException {
        Path script = bin.resolve(name);
        Files.writeString(script, "#!/usr/bin/env bash\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
