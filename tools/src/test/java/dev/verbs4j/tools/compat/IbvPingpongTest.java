package dev.verbs4j.tools.compat;

import dev.verbs4j.tools.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code verbs4j pingpong --compat} as both sides, server and client in this process on two
 * soft devices: the C programs' exchange and loop, every message checked.
 */
class IbvPingpongTest {
    static {
        // Before any provider is loaded: the same devices as the other pingpong tests of this module.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
    }

    private static void runBothSides(String program, int tcpPort, String... options) throws Exception {
        List<String> server = new ArrayList<>(List.of("pingpong", "--compat", program, "-d", "soft0", "-p", Integer.toString(tcpPort)));
        server.addAll(List.of(options));
        List<String> client = new ArrayList<>(server);
        client.set(4, "soft1");
        client.add("127.0.0.1");
        CompletableFuture<CliRun> served = CompletableFuture.supplyAsync(() -> CliRun.of(server.toArray(String[]::new)));
        CliRun ran = CliRun.of(client.toArray(String[]::new));
        CliRun s = served.get(60, TimeUnit.SECONDS);
        assertEquals(0, ran.status(), ran.out() + ran.err() + "\nserver:\n" + s.out() + s.err());
        assertEquals(0, s.status(), s.out() + s.err());
        assertTrue(ran.out().contains("every byte as sent") && s.out().contains("every byte as sent"), ran.out() + s.out());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void rcWithCheckedPagesOnDemandPagingAndPrefetch() throws Exception {
        runBothSides("ibv_rc_pingpong", 27940, "-n", "100", "-s", "9000", "-c", "-o", "-P");
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void rcWithCompletionEventsAndTimestamps() throws Exception {
        runBothSides("ibv", 27941, "-n", "50", "-e", "-t");
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void unreliableTransportsPassTheRcWindowOfUnacknowledgedPackets() throws Exception {
        runBothSides("ibv_uc_pingpong", 27942, "-n", "150", "-s", "4096", "-m", "1024");
        runBothSides("ibv_ud_pingpong", 27943, "-n", "300", "-s", "512");
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void srqWithManyQueuePairs() throws Exception {
        runBothSides("ibv_srq_pingpong", 27944, "-n", "200", "-q", "6", "-r", "64", "-c");
    }

    @Test
    void implicitOnDemandPagingIsRefusedAsTheProgramRefusesIt() {
        CliRun r = CliRun.of("pingpong", "--compat", "ibv_rc_pingpong", "-d", "soft0", "-O");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("The device doesn't support implicit ODP"), r.err());
    }

    @Test
    void optionsAreTheProgramsOwn() {
        CliRun r = CliRun.of("pingpong", "--compat", "ibv_ud_pingpong", "-m", "1024");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("ibv_ud_pingpong has no option -m"), r.err());
        IbvPingpongOptions o = IbvPingpongOptions.parse(new String[] {"--compat", "ibv_srq_pingpong", "-s4096", "--iters=7",
                "--num_qp", "3", "-g", "0x1", "server"});
        assertEquals(IbvProgram.SRQ, o.program());
        assertEquals(4096, o.size());
        assertEquals(7, o.iters());
        assertEquals(3, o.numQp());
        assertEquals(1, o.gidIndex());
        assertEquals("server", o.server());
    }
}
