package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Verbs4jCliTest {
    static {
        // Before any provider is loaded: ports of their own, so runs do not collide with other tests.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:47931,soft1=127.0.0.2:47931");
    }

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Verbs4jCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void devicesListsTheSoftDevicesWithFlushAndAtomicWrite() {
        assertEquals(0, run("devices"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("provider soft: 2 device(s)"), text);
        assertTrue(text.contains("FLUSH_GLOBAL") && text.contains("ATOMIC_WRITE"), text);
        assertTrue(text.contains("GID[0]:\t0000:0000:0000:0000:0000:ffff:7f00:0001"), text);
    }

    @Test
    void demoRunsEveryOperationOverLoopback() {
        assertEquals(0, run("demo"), out + "\n" + err);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(8, text.lines().filter(l -> l.contains(" ok: ")).count(), text);
        assertTrue(!text.contains("FAILED") && text.contains("every operation completed"), text);
    }

    @Test
    void writeBandwidthSpreadsOverQueuePairs() throws java.io.IOException {
        java.nio.file.Path json = java.nio.file.Files.createTempFile("verbs4j-perf", ".jsonl");
        try {
            assertEquals(0, run("perf", "write_bw", "-s", "4096", "-n", "400", "-t", "16", "-q", "4", "--json", json.toString()),
                    out + "\n" + err);
            String text = out.toString(StandardCharsets.UTF_8);
            assertTrue(text.lines().anyMatch(l -> l.trim().startsWith("4096") && l.trim().split("\\s+")[1].equals("400")), text);
            assertTrue(text.contains("retransmits 0"), "no retransmissions on loopback: " + text);
            assertTrue(java.nio.file.Files.readString(json).contains(", 4 QPs"), "the result names its queue pairs");
        } finally {
            java.nio.file.Files.deleteIfExists(json);
        }
    }

    @Test
    void queuePairsOnlyForTheBandwidthTestsThatUseThem() {
        assertEquals(1, run("perf", "send_bw", "-q", "4"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--qps applies to"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertEquals(2, run("frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command"));
    }
}
