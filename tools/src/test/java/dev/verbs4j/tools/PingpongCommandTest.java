package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code verbs4j pingpong} with server and client in this process, on the soft devices of two loopback addresses. */
class PingpongCommandTest {
    static {
        // Before any provider is loaded: ports of their own, so runs do not collide with other tests.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:47931,soft1=127.0.0.2:47931");
    }

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Verbs4jCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void clientAndServerVerifyEveryRoundTripAndTheRdmaWriteAndRead() throws Exception {
        CompletableFuture<Run> server = CompletableFuture.supplyAsync(
                () -> run("pingpong", "--device", "soft0", "--port", "47932", "--iters", "50", "--size", "3000"));
        Run client = run("pingpong", "--device", "soft1", "--port", "47932", "--iters", "50", "--size", "3000", "127.0.0.1");
        Run served = server.get(30, TimeUnit.SECONDS);

        assertEquals(0, client.status(), client.out() + client.err());
        assertEquals(0, served.status(), served.out() + served.err());
        assertTrue(client.out().contains("50 round trips of 3,000 bytes: average"), client.out());
        assertTrue(client.out().contains("RDMA READ back: identical"), client.out());
        // 50 replies, the RDMA READ and the server's verdict, 3000 bytes each.
        assertTrue(client.out().contains("156,000 bytes verified; all checks passed"), client.out());
        assertTrue(served.out().contains("the client's RDMA WRITE of 3,000 bytes arrived intact"), served.out());
        assertTrue(served.out().contains("156,000 bytes verified; all checks passed"), served.out());
    }

    @Test
    void unknownOptionIsAUsageError() {
        Run r = run("pingpong", "--frobnicate");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("unexpected argument '--frobnicate'") && r.err().contains("usage: verbs4j pingpong"), r.err());
    }

    @Test
    void addressIsOnlyForTheSoftProvider() {
        Run r = run("pingpong", "--provider", "ibverbs", "--address", "10.0.0.1");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--address makes a soft device"), r.err());
    }

    @Test
    void sizeMustBePositive() {
        Run r = run("pingpong", "--size", "0");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--size must be between 1 and"), r.err());
    }
}
