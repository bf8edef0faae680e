package dev.verbs4j.conformance;

import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceConfig;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs made one after another in one JVM ({@code --next}) each start from the JVM's own options. */
class ConformanceMainRunsTest {

    @Test
    void aRunInheritsNoOptionOfTheRunBeforeIt() {
        assertNull(System.getProperty(Completions.TIMEOUT_PROPERTY));
        assertNull(System.getProperty(ConformanceConfig.EXCLUDE));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        // The first run sets both (it finds no case in a family that does not exist: status 2);
        // --help ends the second at once, after its options were read, and it names neither.
        int status = ConformanceMain.runEach(new String[] {"--timeout-ms", "1234", "--exclude", "access", "--select",
            "nosuchfamily", "--next", "--label", "second", "--help"}, out);

        assertEquals(2, status);
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("no conformance case matched"), bytes.toString(StandardCharsets.UTF_8));
        assertNull(System.getProperty(Completions.TIMEOUT_PROPERTY), "the first run's timeout reached the second");
        assertNull(System.getProperty(ConformanceConfig.EXCLUDE), "the first run's exclusion reached the second");
        assertEquals("second", System.getProperty(ConformanceConfig.LABEL));
        System.clearProperty(ConformanceConfig.LABEL);
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("--next"), "the usage names --next");
    }

    @Test
    void theWorstStatusOfTheRunsIsTheAnswer() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, ConformanceMain.runEach(new String[] {"--help", "--next", "--no-such-option"}, quiet));
        System.clearProperty(ConformanceConfig.LABEL);
    }
}
