package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tools that connect through the connection manager, server and client in this process on
 * the soft devices of two loopback addresses: each exits 0 only when its whole exchange went
 * through. The servers are started first; the clients try again while they are refused.
 */
class CmToolsTest {
    static {
        // The same devices as the other tools tests, whichever of them loads the provider first.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
    }

    private static void bothSucceed(String[] server, String[] client) throws Exception {
        CompletableFuture<CliRun> served = CompletableFuture.supplyAsync(() -> CliRun.of(server));
        CliRun connected = CliRun.of(client);
        CliRun s = served.get(40, TimeUnit.SECONDS);
        assertEquals(0, connected.status(), connected.out() + connected.err() + "\nserver:\n" + s.out() + s.err());
        assertEquals(0, s.status(), s.out() + s.err());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void rpingChecksEveryPingOnBothSides() throws Exception {
        CompletableFuture<CliRun> served = CompletableFuture.supplyAsync(
                () -> CliRun.of("rping", "-s", "-a", "127.0.0.1", "-p", "27941", "-C", "4", "-V", "-S", "100", "-q"));
        CliRun client = CliRun.of("rping", "-c", "-a", "127.0.0.1", "-I", "127.0.0.2", "-p", "27941", "-C", "4", "-V", "-S", "100");
        CliRun server = served.get(40, TimeUnit.SECONDS);

        assertEquals(0, client.status(), client.out() + client.err() + "\nserver:\n" + server.out() + server.err());
        assertEquals(0, server.status(), server.out() + server.err());
        assertTrue(client.out().contains("4 pings of 100 bytes, every one came back unchanged"), client.out());
        assertTrue(server.out().contains("served 4 pings of up to 100 bytes, each holding rping's text"), server.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theServerCountsThePingsItWasPromised() throws Exception {
        CompletableFuture<CliRun> served = CompletableFuture.supplyAsync(
                () -> CliRun.of("rping", "-s", "-a", "127.0.0.1", "-p", "27942", "-C", "3"));
        // -q: the client's queue pair made outside the id and handed to it.
        CliRun client = CliRun.of("rping", "-c", "-a", "127.0.0.1", "-I", "127.0.0.2", "-p", "27942", "-C", "2", "-q", "-V");
        CliRun server = served.get(40, TimeUnit.SECONDS);

        assertEquals(0, client.status(), client.out() + client.err());
        assertEquals(1, server.status(), server.out() + server.err());
        assertTrue(server.out().contains("the client disconnected after 2 pings, not 3"), server.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void rdmaServerAndClientExchangeTheirMessages() throws Exception {
        bothSucceed(new String[] {"rdma-server", "-s", "127.0.0.1", "-p", "27943"},
                new String[] {"rdma-client", "-s", "127.0.0.1", "-p", "27943", "--address", "127.0.0.2"});
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void perftestSendBandwidthThroughTheConnectionManager() throws Exception {
        bothSucceed(new String[] {"perf", "--compat", "perftest", "send_bw", "-R", "-s", "4096", "-n", "50", "--address", "127.0.0.1",
            "-p", "27944"},
                new String[] {"perf", "--compat", "perftest", "send_bw", "-R", "-s", "4096", "-n", "50", "--address", "127.0.0.2",
                    "-p", "27944", "127.0.0.1"});
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void pingpongThroughTheConnectionManager() throws Exception {
        bothSucceed(new String[] {"pingpong", "--cm", "--address", "127.0.0.1", "--port", "27945", "--iters", "10", "--size", "3000"},
                new String[] {"pingpong", "--cm", "--address", "127.0.0.2", "--port", "27945", "--iters", "10", "--size", "3000",
                    "127.0.0.1"});
    }
}
