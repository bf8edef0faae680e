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
        System.setProperty("verbs4j.soft.devices", "soft0=127.0.0.1:27931,soft1=127.0.0.2:27931");
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
        String shown = showTicks(true);
        assertEquals("\rwrite_bw 4096 B [#######.......................]  25% 5,000/20,000 0 s"
                + "\rwrite_bw 4096 B [###############...............]  50% 10,000/20,000 1 s"
                + "\rwrite_bw 4096 B [###############...............]  50% 10,000/20,000 2 s"
                + "\rwrite_bw 4096 B [######################........]  75% 15,000/20,000 2 s"
                + "\r\033[K", shown, "one bar per tick, redrawn in place, wiped before the result line");
    }

    @Test
    void elsewhereProgressIsPlainLines() {
        String shown = showTicks(false);
        assertEquals("""
                perf: write_bw 4096 B: 50% (10,000 of 20,000) after 1 s
                perf: write_bw 4096 B: 75% (15,000 of 20,000) after 2 s
                """, shown, "a line each time the line interval has passed since the last, none between");
    }

    @Test
    void aBandwidthRunReportsEveryOperationItDoes() {
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        try (Loopback lb = new Loopback("soft", 1 << 16, 16, Mtu.MTU_4096, false)) {
            Progress.attachDriven(new PrintStream(shown, true, StandardCharsets.UTF_8), true, 0, 0, () -> 0L);
            VerbsTests.bandwidth("write_bw", lb, 4096, 2_000, 2_000, new VerbsTests.Pipeline(16, 1, 100, 1), 0);
            assertEquals(2_000, Progress.doneSoFar(), "operations the run reported done");
        } finally {
            Progress.attach(System.err, false);
        }
        assertEquals("", shown.toString(StandardCharsets.UTF_8), "nothing shown without a tick");
    }

    /**
     * A measurement of 20,000 operations on a clock the test moves: ticks at 0.5, 1.5, 2 and
     * 2.5 s after the start, with a quarter more done before each, shown as on a terminal
     * or not (a line every second, the first after 1 s).
     */
    private static String showTicks(boolean terminal) {
        ByteArrayOutputStream shown = new ByteArrayOutputStream();
        long[] now = {7_000_000_000L};
        try {
            Progress.attachDriven(new PrintStream(shown, true, StandardCharsets.UTF_8), terminal, 0, 1_000_000_000L,
                    () -> now[0]);
            Progress.start("write_bw 4096 B", 20_000);
            now[0] += 500_000_000L;
            Progress.update(5_000);
            Progress.tick();
            now[0] += 1_000_000_000L;
            Progress.update(10_000);
            Progress.tick();
            now[0] += 500_000_000L;
            Progress.tick();
            now[0] += 500_000_000L;
            Progress.update(15_000);
            Progress.tick();
            Progress.finish();
        } finally {
            Progress.attach(System.err, false);
        }
        return shown.toString(StandardCharsets.UTF_8);
    }
}
