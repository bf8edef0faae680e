package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two {@code verbs4j pingpong} processes in two network namespaces joined by a veth pair:
 * real UDP between two hosts as far as the soft devices can tell, on a 1500-byte link (so the
 * soft devices must use the 1024-byte IB MTU, as rxe would). The namespaces, their addresses
 * (10.231.x.1 and .2 inside them) and the veth pair exist only for this run and are deleted
 * afterwards, also when the test fails. Where {@code ip netns} cannot be used (not root, no
 * iproute2) the test is skipped with the reason.
 */
class TwoNamespacesTest {
    private static final long PID = ProcessHandle.current().pid();
    private static final String NS_A = "v4j-a-" + PID;
    private static final String NS_B = "v4j-b-" + PID;
    private static final String VETH_A = "v4ja" + PID % 10_000_000;
    private static final String VETH_B = "v4jb" + PID % 10_000_000;
    private static final String SUBNET = "10.231." + (PID % 254 + 1);
    private static final String SERVER_IP = SUBNET + ".1";
    private static final String CLIENT_IP = SUBNET + ".2";
    private static final int ITERATIONS = 100;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void pingpongBetweenTwoNetworkNamespacesOverAVethPair() throws Exception {
        Result probe = ip("netns", "add", NS_A);
        assumeTrue(probe.status() == 0, "ip netns is not usable here (needs root and iproute2): " + probe.output());
        List<Process> processes = new ArrayList<>();
        try {
            joinNamespaces();
            Process server = start(processes, NS_A, "pingpong", "--address", SERVER_IP, "--iters", String.valueOf(ITERATIONS));
            CountDownLatch listening = new CountDownLatch(1);
            CompletableFuture<String> serverOut = collect(server, listening);
            assertTrue(listening.await(30, TimeUnit.SECONDS), "the server never listened");
            Process client = start(processes, NS_B, "pingpong", "--address", CLIENT_IP, "--iters", String.valueOf(ITERATIONS),
                    SERVER_IP);
            CompletableFuture<String> clientOut = collect(client, null);

            assertTrue(client.waitFor(40, TimeUnit.SECONDS), "the client did not finish");
            assertTrue(server.waitFor(10, TimeUnit.SECONDS), "the server did not finish");
            String c = clientOut.get(5, TimeUnit.SECONDS);
            String s = serverOut.get(5, TimeUnit.SECONDS);
            System.out.println("server in " + NS_A + ":\n" + s + "client in " + NS_B + ":\n" + c);
            assertEquals(0, client.exitValue(), c);
            assertEquals(0, server.exitValue(), s);
            assertTrue(c.contains("GID 0000:0000:0000:0000:0000:ffff:") && c.contains("path MTU 1024"), c);
            assertTrue(c.contains(ITERATIONS + " round trips of 4,096 bytes: average"), c);
            assertTrue(c.contains("RDMA READ back: identical"), c);
            // Each side checks 102 messages' worth: the client 100 replies, the READ and the
            // server's verdict; the server 100 messages, the last one and its written region.
            assertTrue(c.contains("417,792 bytes verified; all checks passed"), c);
            assertTrue(s.contains("the client's RDMA WRITE of 4,096 bytes arrived intact"), s);
            assertTrue(s.contains("417,792 bytes verified; all checks passed"), s);
        } finally {
            for (Process p : processes) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
            ip("netns", "del", NS_A);
            ip("netns", "del", NS_B);
        }
    }

    /** The second namespace, a veth pair with one end in each, addresses, and every link up. */
    private static void joinNamespaces() throws IOException, InterruptedException {
        for (String[] command : new String[][] {
                {"netns", "add", NS_B},
                {"link", "add", VETH_A, "type", "veth", "peer", "name", VETH_B},
                {"link", "set", VETH_A, "netns", NS_A},
                {"link", "set", VETH_B, "netns", NS_B},
                {"-n", NS_A, "addr", "add", SERVER_IP + "/24", "dev", VETH_A},
                {"-n", NS_B, "addr", "add", CLIENT_IP + "/24", "dev", VETH_B},
                {"-n", NS_A, "link", "set", "lo", "up"},
                {"-n", NS_B, "link", "set", "lo", "up"},
                {"-n", NS_A, "link", "set", VETH_A, "up"},
                {"-n", NS_B, "link", "set", VETH_B, "up"}}) {
            Result r = ip(command);
            assertEquals(0, r.status(), "ip " + String.join(" ", command) + ": " + r.output());
        }
    }

    /** Runs the verbs4j command (this JVM's java and class path) inside {@code namespace}. */
    private static Process start(List<Process> processes, String namespace, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace,
                ProcessHandle.current().info().command().orElse("java"), "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"), Verbs4jCli.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        processes.add(p);
        return p;
    }

    /** Reads a process's output to its end; counts {@code listening} down when the server waits for its client. */
    private static CompletableFuture<String> collect(Process p, CountDownLatch listening) {
        return CompletableFuture.supplyAsync(() -> {
            StringBuilder sb = new StringBuilder();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    sb.append(line).append('\n');
                    if (listening != null && line.contains("waiting for a client")) {
                        listening.countDown();
                    }
                }
            } catch (IOException e) {
                sb.append("(output lost: ").append(e.getMessage()).append(")\n");
            }
            return sb.toString();
        });
    }

    private record Result(int status, String output) {
    }

    private static Result ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("ip");
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result(-1, "cannot run ip: " + e.getMessage());
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return new Result(p.waitFor(), output);
    }
}
