package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.tools.CliRun;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both sides of perftest's exchange in this process, the server on soft0 and the client on
 * soft1: each test's sequence of exchanges must match itself, or both sides wait for ever.
 * (The C programs stand on the other side in the VM run, scripts/vm-guest-perftest.sh.)
 */
class SoftAgainstSoftTest {
    static {
        // The same devices as the other tool tests, whichever of them loads the provider first.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
        // The progress model the other tool tests' perf runs choose, whichever loads the provider
        // first: one process holds both sides, so every poll drives both devices.
        if (System.getProperty("verbs4j.soft.progress") == null) {
            System.setProperty("verbs4j.soft.progress", "caller");
        }
    }

    private static final AtomicInteger PORTS = new AtomicInteger(27990);

    private static CliRun[] serverAndClient(String test, String... extra) throws Exception {
        String port = String.valueOf(PORTS.getAndIncrement());
        String[] common = {"-n", "50", "-p", port};
        CompletableFuture<CliRun> server = CompletableFuture.supplyAsync(() -> CliRun.of(
                concat(new String[] {"perf", "--compat", "perftest", test, "-d", "soft0"}, common, extra)));
        CliRun client = CliRun.of(concat(new String[] {"perf", "--compat", "ib_" + test, "-d", "soft1"}, common, extra,
                new String[] {"127.0.0.1"}));
        return new CliRun[] {server.get(60, TimeUnit.SECONDS), client};
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }

    @ParameterizedTest
    @ValueSource(strings = {"write_bw", "read_bw", "send_bw", "atomic_bw", "write_lat", "read_lat", "send_lat", "atomic_lat"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void bothSidesFinishEveryTest(String test) throws Exception {
        CliRun[] r = serverAndClient(test);

        assertEquals(0, r[1].status(), r[1].out() + r[1].err());
        assertEquals(0, r[0].status(), r[0].out() + r[0].err());
        String size = test.startsWith("atomic") ? "8" : test.endsWith("_lat") ? "2" : "65536";
        assertTrue(r[1].out().lines().anyMatch(l -> l.trim().matches(size + "\\s+50\\s.*")), r[1].out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"send_bw", "write_bw"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void twoQueuePairsCarryTheIterationsOfBoth(String test) throws Exception {
        CliRun[] r = serverAndClient(test, "-q", "2", "-s", "4096");

        assertEquals(0, r[1].status(), r[1].out() + r[1].err());
        assertEquals(0, r[0].status(), r[0].out() + r[0].err());
        assertTrue(r[1].out().lines().anyMatch(l -> l.trim().matches("4096\\s+100\\s.*")), r[1].out());
    }
}
