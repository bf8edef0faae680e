package dev.verbs4j.tools.perf;

import dev.verbs4j.tools.CliRun;
import dev.verbs4j.tools.Verbs4jCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perf --server} and its client: the responder is another party, reached over a TCP
 * side channel; its packet counters show the requests went to it.
 */
class PerfServerTest {
    static {
        // The same devices as the other tool tests, whichever of them loads the provider first.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
    }

    private static final AtomicInteger PORTS = new AtomicInteger(27950);

    /** The server on soft0 in a thread of its own, the client on soft1; both outputs once both are done. */
    private static CliRun[] serverAndClient(String... clientArgs) throws Exception {
        String port = String.valueOf(PORTS.getAndIncrement());
        CompletableFuture<CliRun> server = CompletableFuture.supplyAsync(
                () -> CliRun.of("perf", "--server", "--device", "soft0", "--port", port));
        List<String> args = new ArrayList<>(List.of("perf"));
        args.addAll(List.of(clientArgs));
        args.addAll(List.of("--device", "soft1", "--port", port, "127.0.0.1"));
        CliRun client = CliRun.of(args.toArray(String[]::new));
        return new CliRun[] {server.get(30, TimeUnit.SECONDS), client};
    }

    /** The number in "soft0: ... in N," of the server's closing line: packets its device received. */
    private static long packetsIn(String serverOut) {
        return counter(serverOut, "soft0", "in");
    }

    /** A counter of {@code device} in a run's counters line ("soft1: out N, in N, retransmits N, ..."). */
    private static long counter(String out, String device, String name) {
        String after = out.substring(out.indexOf(device + ": out"));
        return Long.parseLong(after.replaceAll("(?s)^" + device + ":[^;]*?\\b" + name + " (\\d+)[,;].*$", "$1"));
    }

    /**
     * Asserts the server received {@code expected} packets, plus what a busy machine may add:
     * each packet the client sent again after a timeout, and at most one acknowledgement for
     * each of the server's own packets sent again (a duplicate request is acknowledged anew).
     */
    private static void assertServerReceived(long expected, CliRun server, CliRun client) {
        long clientAgain = counter(client.out(), "soft1", "retransmits");
        long serverAgain = counter(server.out(), "soft0", "retransmits");
        long in = packetsIn(server.out());
        assertTrue(in >= expected + clientAgain && in <= expected + clientAgain + serverAgain,
                "the server received " + in + " packets; expected " + expected + " plus the client's " + clientAgain
                        + " retransmitted and at most " + serverAgain + " acknowledgements of its own retransmitted:\n"
                        + server.out() + client.out());
    }

    /**
     * A ping-pong's count at the server: each of the client's {@code requests}, and the
     * client's acknowledgements of the server's as many replies. A responder may acknowledge
     * several requests with one ACK (an acknowledgement held back is taken over by that of a
     * later request), and holds the last one back to its next step, so there are between none
     * and one per reply. That nothing was lost on the way is the other half: the server
     * received what the client sent, give or take the one acknowledgement that may leave or
     * arrive between the client's count and the server's.
     */
    private static void assertPingPongServerReceived(long requests, CliRun server, CliRun client) {
        long clientAgain = counter(client.out(), "soft1", "retransmits");
        long serverAgain = counter(server.out(), "soft0", "retransmits");
        long clientOut = counter(client.out(), "soft1", "out");
        long in = packetsIn(server.out());
        String both = "\n" + server.out() + client.out();
        assertTrue(in >= requests + clientAgain && in <= 2 * requests + clientAgain + serverAgain,
                "the server received " + in + " packets; expected the client's " + requests + " requests and "
                        + clientAgain + " retransmitted, and at most one acknowledgement for each of its "
                        + requests + " replies and " + serverAgain + " retransmitted:" + both);
        assertTrue(Math.abs(in - clientOut) <= 1,
                "the server received " + in + " packets, the client sent " + clientOut + ":" + both);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writeBandwidthLandsOnTheServersDevice() throws Exception {
        CliRun[] r = serverAndClient("write_bw", "-s", "8192", "-n", "300", "-w", "300", "-m", "4096");

        assertEquals(0, r[1].status(), "client:\n" + r[1].out() + r[1].err() + "server:\n" + r[0].out() + r[0].err());
        assertEquals(0, r[0].status(), r[0].out() + r[0].err());
        assertTrue(r[1].out().contains("soft soft1 -> soft:soft0 at 127.0.0.1:"), r[1].out());
        assertTrue(r[1].out().lines().anyMatch(l -> l.trim().matches("8192\\s+300\\s.*")), r[1].out());
        // 300 warm-up and 300 measured WRITEs of two 4 KiB packets each.
        assertServerReceived(1200, r[0], r[1]);
        // The warm-up's two runs and the measurement.
        assertTrue(r[0].out().contains("served 3 measurement(s)"), r[0].out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"send_bw", "read_bw", "atomic_bw", "atomic_write_bw", "flush_bw"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void bandwidthTestsRunAgainstAServer(String test) throws Exception {
        CliRun[] r = serverAndClient(test, "-n", "200", "-w", "200", "-t", "16");

        assertEquals(0, r[1].status(), "client:\n" + r[1].out() + r[1].err() + "server:\n" + r[0].out() + r[0].err());
        assertEquals(0, r[0].status(), r[0].out() + r[0].err());
        assertTrue(r[1].out().lines().anyMatch(l -> l.trim().matches("\\d+\\s+200\\s.*")), r[1].out());
        // Every request is one packet, a 64 KiB SEND 16 at MTU 4096: the server saw them all (a
        // SEND that found no receive posted comes again).
        if (test.equals("send_bw")) {
            assertTrue(r[0].out().contains("served 3 measurement(s), 400 message(s) received"), r[0].out());
            assertTrue(packetsIn(r[0].out()) >= 6400, r[0].out());
        } else {
            assertServerReceived(400, r[0], r[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"write_lat", "send_lat", "read_lat", "atomic_lat", "flush_lat", "flush_mr_lat"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void latencyTestsRunAgainstAServer(String test) throws Exception {
        CliRun[] r = serverAndClient(test, "-n", "300", "-w", "300");

        assertEquals(0, r[1].status(), "client:\n" + r[1].out() + r[1].err() + "server:\n" + r[0].out() + r[0].err());
        assertEquals(0, r[0].status(), r[0].out() + r[0].err());
        assertTrue(r[1].out().lines().anyMatch(l -> l.trim().matches("\\d+\\s+300\\s.*")), r[1].out());
        // 300 warm-up and 300 measured operations; in a ping-pong, also the acknowledgements of
        // the replies.
        if (test.equals("write_lat") || test.equals("send_lat")) {
            assertPingPongServerReceived(600, r[0], r[1]);
        } else {
            assertServerReceived(600, r[0], r[1]);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void queuePairsAreConnectedPairwise() throws Exception {
        CliRun[] r = serverAndClient("write_bw", "-s", "4096", "-n", "400", "-w", "400", "-t", "16", "-q", "4");

        assertEquals(0, r[1].status(), "client:\n" + r[1].out() + r[1].err() + "server:\n" + r[0].out() + r[0].err());
        assertTrue(r[0].out().contains("4 queue pair(s) connected"), r[0].out());
        assertServerReceived(800, r[0], r[1]);
    }

    /**
     * -D: runs of -n follow each other for the duration; the server answers each, and every
     * sample counts. How many runs fit in the second depends on the machine; that a run
     * follows another while time is left is {@link #aDurationRepeatsRunsWhileItLastsAndWithinTheLimit}'s.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void durationRepeatsRunsUntilTheTimeIsUp() throws Exception {
        CliRun[] r = serverAndClient("send_lat", "-n", "200", "-w", "200", "-D", "1");

        assertEquals(0, r[1].status(), "client:\n" + r[1].out() + r[1].err() + "server:\n" + r[0].out() + r[0].err());
        String line = r[1].out().lines().filter(l -> l.trim().matches("8\\s+\\d+\\s.*")).findFirst().orElseThrow();
        int samples = Integer.parseInt(line.trim().split("\\s+")[1]);
        assertEquals(0, samples % 200, line);
        assertTrue(samples >= 200, "at least one run of 200 round trips: " + line);
        // The warm-up's two runs and each run of 200 are measurements the server answered.
        assertTrue(r[0].out().contains("served " + (2 + samples / 200) + " measurement(s)"), r[0].out());
        assertPingPongServerReceived(200 + samples, r[0], r[1]);
    }

    @Test
    void oneProcessTestsTakeNoServer() {
        CliRun r = CliRun.of("perf", "mr_cycle", "127.0.0.1");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("mr_cycle runs in one process"), r.err());
        CliRun s = CliRun.of("perf", "--server", "odp_bw");
        assertEquals(1, s.status());
        assertTrue(s.err().contains("odp_bw runs in one process; a server serves write_bw"), s.err());
        CliRun d = CliRun.of("perf", "write_bw", "--device", "soft1");
        assertEquals(1, d.status());
        assertTrue(d.err().contains("--device and --address choose this side's device against a server"), d.err());
        CliRun t = CliRun.of("perf", "mr_cycle", "-D", "5");
        assertEquals(1, t.status());
        assertTrue(t.err().contains("--duration applies to the bandwidth and latency tests"), t.err());
    }

    @Test
    void aNegativeWarmUpIsRefused() {
        CliRun r = CliRun.of("perf", "write_bw", "--warmup", "-2");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("--warmup must be 0 or more"), r.err());
    }

    @Test
    void atomicsMoveOneWord() {
        CliRun r = CliRun.of("perf", "atomic_bw", "-s", "4096");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("atomic_bw moves one 8-byte word"), r.err());
    }

    /** A client that dies in the middle of a run: the server notices, fails, and does not spin on. */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void serverFailsWhenItsClientDiesMidRun() throws Exception {
        String port = String.valueOf(PORTS.getAndIncrement());
        CompletableFuture<CliRun> server = CompletableFuture.supplyAsync(
                () -> CliRun.of("perf", "--server", "--device", "soft0", "--port", port));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx256m",
                "-Dverbs4j.soft.devices=soft1=127.0.0.3:27931", "-cp", System.getProperty("java.class.path"),
                Verbs4jCli.class.getName(), "perf", "write_lat", "-n", "2000000", "--port", port, "127.0.0.1"));
        Process client = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
            StringBuilder seen = new StringBuilder();
            String line;
            do {
                line = lines.readLine();
                seen.append(line).append('\n');
            } while (line != null && !line.startsWith(" #bytes"));
            assertTrue(line != null, "the client never started measuring: " + seen);
            Thread.sleep(500);
        } finally {
            client.destroyForcibly();
            client.waitFor(10, TimeUnit.SECONDS);
        }
        CliRun served = server.get(30, TimeUnit.SECONDS);
        assertEquals(1, served.status(), served.out());
        assertTrue(served.err().contains("went away") || served.err().contains("closed the channel"), served.err());
    }

    @Test
    void aDurationRepeatsRunsWhileItLastsAndWithinTheLimit() {
        long start = 5_000_000_000L;
        long second = 1_000_000_000L;
        assertTrue(VerbsTests.goOn(start + second - 1, start, second, 200, 200, Integer.MAX_VALUE), "time is left: another run");
        assertTrue(!VerbsTests.goOn(start + second, start, second, 200, 200, Integer.MAX_VALUE), "the duration has passed");
        assertTrue(!VerbsTests.goOn(start, start, 0, 200, 200, Integer.MAX_VALUE), "without a duration, one run");
        assertTrue(!VerbsTests.goOn(start + 1, start, second, 900, 200, 1_000), "a run past the limit does not start");
    }
}
