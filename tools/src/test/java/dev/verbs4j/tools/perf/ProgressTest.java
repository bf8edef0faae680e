package dev.verbs4j.tools.perf;

import dev.verbs4j.Mtu;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Progress of a running measurement: a bar on a terminal, plain lines elsewhere. */
class ProgressTest {
    static {
        // The same devices as the other tool tests, whichever of them loads the provider first.
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:47931,soft1=127.0.0.2:47931");
    }

    @Test
    void barAndLineSayHowFarTheRunIs() {
        assertEquals("write_bw 65536 B [###############...............]  50% 2,500/5,000 3 s",
                Progress.bar("write_bw 65536 B", 2500, 5000, 3_400_000_000L, 0));
        assertEquals("perf: write_lat 8 B: 99% (9,999 of 10,000) after 12 s",
                Progress.line("write_lat 8 B", 9999, 10_000, 12_000_000_000L, 0));
        assertEquals("x [##############################] 100% 7/7 0 s", Progress.bar("x", 7, 7, 0, 0));
        // A run for a time (-D): the share of the time, and what is done so far.
        assertEquals("write_bw 65536 B [#########.....................]  30% 12,345 done 3/10 s",
                Progress.bar("write_bw 65536 B", 12_345, 0, 3_000_000_000L, 10_000_000_000L));
        assertEquals("perf: send_lat 8 B: 50% (800 done) after 10 of 20 s",
                Progress.line("send_lat 8 B", 800, 0, 10_000_000_000L, 20_000_000_000L));
    }

    @Test
    void aTerminalGetsABarRedrawnInPlaceAndWipedAtTheEnd() {
        String shown = runWhileShowing(true);
        assertTrue(shown.startsWith("\rwrite_bw 4096 B ["), shown);
        assertTrue(shown.contains("/20,000 "), shown);
        assertTrue(shown.endsWith("\r\033[K"), "the bar is wiped before the result line: " + shown);
        assertFalse(shown.contains("\n"), shown);
    }

    @Test
    void elsewhereProgressIsPlainLines() {
        String shown = runWhileShowing(false);
        assertTrue(shown.startsWith("perf: write_bw 4096 B: "), shown);
        assertTrue(shown.lines().allMatch(l -> l.matches("perf: write_bw 4096 B: \\d+% \\([\\d,]+ of 20,000\\) after \\d+ s")),
                shown);
        assertFalse(shown.contains("\r"), shown);
    }

    /** 20,000 writes of 4 KiB with progress ticking every 2 ms from the start, shown as on a terminal or not. */
    private static String runWhileShowing(boolean terminal) {
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(shown, true, StandardCharsets.UTF_8);
        try (Loopback lb = new Loopback("soft", 1 << 16, 16, Mtu.MTU_4096, false)) {
            Progress.attach(stream, terminal, 2_000_000L, 0, 4_000_000L);
            VerbsTests.bandwidth("write_bw", lb, 4096, 20_000, new VerbsTests.Pipeline(16, 1, 100, 1), 0);
        } finally {
            Progress.attach(System.err, false);
        }
        return shown.toString(StandardCharsets.UTF_8);
    }
}
