package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.MemoryNamespace;
import dev.verbs4j.nvmeof.controller.Subsystem;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.HostOptions;
import dev.verbs4j.nvmeof.host.HostQueue;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.DiscoveryLog;
import dev.verbs4j.nvmeof.wire.Le;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subsystems offered to and withdrawn from a running target: the discovery log and its
 * generation follow, a withdrawn subsystem's hosts lose their controller, other hosts keep
 * theirs, and a subsystem offered again takes connections.
 */
class SubsystemChangesTest {
    private static final int PORT = 4427;
    private static final String ADDED = "nqn.2026-01.dev.verbs4j:added";
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    static final SharedTarget TARGET = new SharedTarget(PORT);

    private static HostOptions hostOf(String subsystem) {
        return HostOptions.of(Loopback.HOST_A_ADDRESS, new InetSocketAddress("127.0.0.1", PORT), subsystem, Loopback.HOST_A)
                .withQueues(1, 16);
    }

    private static Subsystem added() {
        return new Subsystem(ADDED, "VERBS4J0009", List.of(new MemoryNamespace(64 << 10, 9, UUID.randomUUID())),
                Set.of(Loopback.HOST_A));
    }

    private static long generation() {
        MemorySegment log = NvmeHost.discover(Loopback.soft(), hostOf(Loopback.SUBSYSTEM));
        return Le.u64(log, DiscoveryLog.GENERATION);
    }

    private static void read(NvmeHost host) {
        MemorySegment in = host.allocateBuffer(512);
        host.ioQueue(1).execute(Command.read(1, 0, 1, in), WAIT);
    }

    @Test
    void offeredSubsystemTakesHostsAndWithdrawingItEndsOnlyItsControllers() throws Exception {
        long before = generation();
        TARGET.target().offer(added()).get(10, TimeUnit.SECONDS);
        assertTrue(generation() > before, "the discovery log's generation changes with its entries");
        MemorySegment log = NvmeHost.discover(Loopback.soft(), hostOf(Loopback.SUBSYSTEM));
        assertEquals(3, DiscoveryLog.records(log));
        try (NvmeHost bystander = NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_B, Loopback.HOST_B_ADDRESS, PORT));
             NvmeHost host = NvmeHost.connect(Loopback.soft(), hostOf(ADDED))) {
            read(host);
            Subsystem withdrawn = TARGET.target().withdraw(ADDED).get(10, TimeUnit.SECONDS);
            assertEquals(ADDED, withdrawn.nqn());
            withdrawn.namespaces().getFirst().close();
            HostQueue queue = host.ioQueue(1);
            MemorySegment in = host.allocateBuffer(512);
            assertThrows(NvmeException.class, () -> queue.execute(Command.read(1, 0, 1, in), WAIT),
                    "a host of a withdrawn subsystem loses its controller");
            read(bystander);
        }
        assertNull(TARGET.target().withdraw(ADDED).get(10, TimeUnit.SECONDS), "withdrawing it twice finds nothing");
        assertThrows(NvmeException.class, () -> NvmeHost.connect(Loopback.soft(), hostOf(ADDED)).close());
        TARGET.target().offer(added()).get(10, TimeUnit.SECONDS);
        try (NvmeHost again = NvmeHost.connect(Loopback.soft(), hostOf(ADDED))) {
            read(again);
        }
        TARGET.target().withdraw(ADDED).get(10, TimeUnit.SECONDS).namespaces().getFirst().close();
    }

    @Test
    void offeringATakenNqnFails() throws Exception {
        try (MemoryNamespace ns = new MemoryNamespace(4096, 9)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> TARGET.target().offer(new Subsystem(Loopback.SUBSYSTEM, "VERBS4J0010", List.of(ns), Set.of()))
                            .get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof IllegalArgumentException);
        }
    }

    /** The control pipe's commands, as TargetMain --control applies them. */
    @Test
    void controlCommandsOfferAndWithdrawOrSayWhatIsWrong() throws Exception {
        ControlFifo control = new ControlFifo(null, TARGET.target(), 2, new PrintStream(new ByteArrayOutputStream()));
        String nqn = "nqn.2026-01.dev.verbs4j:piped";
        assertEquals("offered " + nqn, control.apply(("offer " + nqn + " any mem:64K:uuid=" + UUID.randomUUID()).split(" ")));
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), HostOptions.of(Loopback.HOST_B_ADDRESS,
                new InetSocketAddress("127.0.0.1", PORT), nqn, Loopback.HOST_B).withQueues(1, 16))) {
            read(host);
        }
        assertTrue(control.apply(("offer " + nqn + " any mem:64K").split(" ")).startsWith("error: subsystem NQN"));
        assertEquals("withdrew " + nqn, control.apply(("withdraw " + nqn).split(" ")));
        assertEquals("error: no subsystem " + nqn, control.apply(("withdraw " + nqn).split(" ")));
        assertTrue(control.apply("offer x any mem:0".split(" ")).startsWith("error: "));
        assertTrue(control.apply("offer x any".split(" ")).startsWith("error: not a command"));
        assertTrue(control.apply("reboot".split(" ")).startsWith("error: not a command"));
    }
}
