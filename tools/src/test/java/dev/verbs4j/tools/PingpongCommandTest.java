package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code verbs4j pingpong} with server and client in this process, on the soft devices of two loopback addresses. */
class PingpongCommandTest {
    static {
        // Before any provider is loaded: ports of their own, so runs do not collide with other tests.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void clientAndServerVerifyEveryRoundTripAndTheRdmaWriteAndRead() throws Exception {
        CompletableFuture<CliRun> server = CompletableFuture.supplyAsync(
                () -> CliRun.of("pingpong", "--device", "soft0", "--port", "27932", "--iters", "50", "--size", "3000"));
        CliRun client = CliRun.of("pingpong", "--device", "soft1", "--port", "27932", "--iters", "50", "--size", "3000", "127.0.0.1");
        CliRun served = server.get(30, TimeUnit.SECONDS);

        assertEquals(0, client.status(), client.out() + client.err() + "\nserver:\n" + served.out() + served.err());
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
        CliRun r = CliRun.of("pingpong", "--frobnicate");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("unexpected argument '--frobnicate'") && r.err().contains("usage: verbs4j pingpong"), r.err());
    }

    @Test
    void addressIsOnlyForTheSoftProvider() {
        CliRun r = CliRun.of("pingpong", "--provider", "ibverbs", "--address", "10.0.0.1");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--address makes a soft device"), r.err());
    }

    @Test
    void sizeMustBePositive() {
        CliRun r = CliRun.of("pingpong", "--size", "0");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--size must be between 1 and"), r.err());
    }

    @Test
    void theConnectionManagerTakesThePathMtuFromTheRoute() {
        CliRun r = CliRun.of("pingpong", "--cm", "--mtu", "1024");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("with --cm the route gives it"), r.err());
    }
}
