package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Verbs4jCliTest {
    static {
        // Before any provider is loaded: ports of their own, so runs do not collide with other tests.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
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
        assertTrue(text.contains("\t\t\tGID[  0]:\t\t::ffff:127.0.0.1, RoCE v2\n"), text);
    }

    @Test
    void watchPrintsThePortAsItIsThenItsChanges() {
        assertEquals(0, run("devices", "--watch", "0.2", "-d", "soft0"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(List.of("watching 1 device(s)", "soft0 port 1 state ACTIVE active_mtu 4096"), text.lines().toList(), text);
    }

    @Test
    void gidsAreWrittenAsInetNtopWritesThem() {
        assertEquals("fe80::9cf8:f2ff:fe56:6b6a", DevicesCommand.ntop(dev.verbs4j.Gid.parse("fe80::9cf8:f2ff:fe56:6b6a").toBytes()));
        assertEquals("fd00:9::2", DevicesCommand.ntop(dev.verbs4j.Gid.parse("fd00:9:0:0:0:0:0:2").toBytes()));
        assertEquals("::ffff:10.9.0.2", DevicesCommand.ntop(dev.verbs4j.Gid.parse("::ffff:10.9.0.2").toBytes()));
        assertEquals("1:0:1::", DevicesCommand.ntop(dev.verbs4j.Gid.parse("1:0:1:0:0:0:0:0").toBytes()));
        assertEquals("2001:db8::1:0:0:1", DevicesCommand.ntop(dev.verbs4j.Gid.parse("2001:db8:0:0:1:0:0:1").toBytes()));
        assertEquals("::", DevicesCommand.ntop(new byte[16]));
    }

    @Test
    void devicesWithCountersPrintsEachSoftDevicesCounters() {
        assertEquals(0, run("devices", "--counters"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(2, text.lines().filter(l -> l.equals("\tcounters:")).count(), text);
        assertTrue(text.contains("\t\tpackets_in:\t0") && text.contains("\t\tnaks_received_remote_access_error:\t0")
                && text.contains("\t\todp_faults:\t0"), text);
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

    /** -D: runs of -n follow each other for the duration, and all of them count. */
    @Test
    void bandwidthForADuration() {
        assertEquals(0, run("perf", "write_bw", "-s", "4096", "-n", "500", "-D", "1"), out + "\n" + err);
        String text = out.toString(StandardCharsets.UTF_8);
        String line = text.lines().filter(l -> l.trim().startsWith("4096 ")).findFirst().orElseThrow();
        int operations = Integer.parseInt(line.trim().split("\\s+")[1]);
        assertEquals(0, operations % 500, line);
        assertTrue(operations >= 1000, "a second holds more than one run of 500 writes: " + line);
    }

    @Test
    void perfReportDrawsEverySeriesAndListsEveryResult() throws java.io.IOException {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("verbs4j-report");
        java.nio.file.Path json = dir.resolve("run.jsonl");
        java.nio.file.Files.writeString(json, String.join("\n",
                "{\"test\":\"write_bw\",\"setup\":\"soft soft0 <-> soft1, MTU 4096\",\"bytes\":4096,\"iterations\":100,"
                        + "\"allocated_bytes_per_op\":0.100,\"bw_peak_gbps\":2.5,\"bw_avg_gbps\":2.0,\"msg_rate_mpps\":0.06}",
                "{\"test\":\"write_bw\",\"setup\":\"soft soft0 <-> soft1, MTU 4096\",\"bytes\":65536,\"iterations\":100,"
                        + "\"allocated_bytes_per_op\":0.100,\"bw_peak_gbps\":5.5,\"bw_avg_gbps\":5.0,\"msg_rate_mpps\":0.01}",
                "{\"test\":\"write_lat\",\"setup\":\"soft soft0 <-> soft1, MTU 4096\",\"bytes\":8,\"iterations\":100,"
                        + "\"allocated_bytes_per_op\":0.2,\"t_min_us\":10.0,\"t_typical_us\":12.5,\"t_avg_us\":13.0,"
                        + "\"t_p99_us\":20.0,\"t_p999_us\":30.0,\"t_max_us\":40.0}", ""));
        try {
            assertEquals(0, run("perf-report", json.toString()), out + "\n" + err);
            String html = java.nio.file.Files.readString(dir.resolve("run.html"));
            assertEquals(3, html.split("<polyline", -1).length - 1, "bandwidth, latency typical, latency 99%: " + html);
            assertEquals(4, html.split("<circle", -1).length - 1, "one point per value: " + html);
            assertTrue(html.contains("write_bw, soft soft0 &lt;-&gt; soft1, MTU 4096: 64K B, 5.000 Gb/s"), html);
            assertTrue(html.contains("write_lat, soft soft0 &lt;-&gt; soft1, MTU 4096 99%: 8 B, 20.0 µs"), html);
            assertEquals(3, html.split("<tr><td class=\"l\">", -1).length - 1, "a table row per result");
        } finally {
            try (var files = java.nio.file.Files.list(dir)) {
                for (java.nio.file.Path f : files.toList()) {
                    java.nio.file.Files.delete(f);
                }
            }
            java.nio.file.Files.delete(dir);
        }
    }

    @Test
    void perfReportRejectsWhatPerfDidNotWrite() throws java.io.IOException {
        java.nio.file.Path json = java.nio.file.Files.createTempFile("verbs4j-report", ".jsonl");
        try {
            java.nio.file.Files.writeString(json, "{\"hello\":1}\n");
            assertEquals(1, run("perf-report", json.toString()));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("not a perf --json line"), err.toString(StandardCharsets.UTF_8));
        } finally {
            java.nio.file.Files.deleteIfExists(json);
        }
    }

    @Test
    void anAgentServesAtLeastOneSession() {
        assertEquals(2, run("conformance-agent", "--listen", "127.0.0.1:0", "--sessions", "0"));
        assertEquals(2, run("conformance-agent", "--listen", "127.0.0.1:0", "--sessions", "many"));
        assertEquals(2, run("conformance-agent", "--listen", "127.0.0.1:0", "--sessions"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("[--sessions N]"), err.toString(StandardCharsets.UTF_8));
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
