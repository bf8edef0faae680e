package dev.verbs4j.tools;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code verbs4j devices --counters --pid}: the counters of another Java process's soft devices, read over JMX. */
class CountersCommandTest {
    @Test
    void countersOfAnotherProcessShowItsTraffic() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), CountingProcess.class.getName()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("ready SUCCESS", lines.readLine());
            CliRun run = CliRun.of("devices", "--counters", "--pid", Long.toString(child.pid()));
            assertEquals(0, run.status(), run.out() + run.err());
            String text = run.out();
            assertTrue(text.contains("process " + child.pid() + ": 2 soft device(s)"), text);
            int a = text.indexOf("hca_id:\tcount-a");
            int b = text.indexOf("hca_id:\tcount-b");
            assertTrue(a >= 0 && b > a, text);
            String deviceA = text.substring(a, b);
            String deviceB = text.substring(b);
            // Three WRITE packets out of a, one acknowledgement back.
            assertTrue(deviceA.contains("\t\tpackets_out:\t3\n") && deviceA.contains("\t\tpackets_in:\t1\n"), deviceA);
            assertTrue(deviceB.contains("\t\tpackets_in:\t3\n") && deviceB.contains("\t\todp_faults:\t0\n"), deviceB);
            assertTrue(deviceA.lines().anyMatch(l -> l.startsWith("\tqp 0x") && l.contains("packets_out 3")), deviceA);
        } finally {
            child.getOutputStream().close();
            child.waitFor();
        }
    }

    @Test
    void pidWithoutCountersIsAUsageError() {
        CliRun run = CliRun.of("devices", "--pid", "1");
        assertEquals(1, run.status());
        assertTrue(run.err().contains("usage: verbs4j devices --counters --pid PID"), run.err());
    }
}
