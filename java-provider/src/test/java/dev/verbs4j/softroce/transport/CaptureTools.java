package dev.verbs4j.softroce.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The programs that read our captures independently of us: tshark (Wireshark's dissectors)
 * and scapy's RoCE layer (through {@code src/test/python/roce_icrc_check.py}). A test that
 * needs one skips when it is missing, unless the environment variable
 * {@value #REQUIRE_VARIABLE} is {@code 1} (the test command sets it after installing them):
 * then a missing program fails the test.
 */
public final class CaptureTools {
    public static final String REQUIRE_VARIABLE = "VERBS4J_REQUIRE_CAPTURE_TOOLS";
    /** The ICRC checker, relative to the module (the tests' working directory). */
    public static final Path ICRC_CHECKER = Path.of("src/test/python/roce_icrc_check.py");
    private static final List<String> PYTHONS = List.of("/usr/bin/python3", "python3");

    private CaptureTools() {
    }

    /** Skips (or, when required, fails) unless tshark runs. */
    public static void requireTshark() {
        require(runs(List.of("tshark", "--version")), "tshark is not installed (apt-get install tshark)");
    }

    /** A Python that has scapy's RoCE layer; skips (or, when required, fails) when there is none. */
    public static String requireScapyPython() {
        for (String python : PYTHONS) {
            if (runs(List.of(python, "-c", "import scapy.contrib.roce"))) {
                return python;
            }
        }
        require(false, "no python3 with scapy's RoCE layer (apt-get install python3-scapy)");
        return null;
    }

    /** Runs {@code command} and returns its standard output; fails the test if it exits with another status than {@code expectedStatus}. */
    public static String run(List<String> command, int expectedStatus) throws IOException, InterruptedException {
        Path err = Files.createTempFile("capture-tool", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + command);
            if (p.exitValue() != expectedStatus) {
                fail(command + " exited with " + p.exitValue() + ":\n" + out + Files.readString(err));
            }
            return out;
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** Runs the scapy ICRC checker on {@code files}; see the script for its output. */
    public static List<String> checkIcrc(String python, int expectedStatus, Path... files) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(python, ICRC_CHECKER.toString()));
        for (Path f : files) {
            command.add(f.toString());
        }
        return run(command, expectedStatus).lines().toList();
    }

    private static void require(boolean present, String missing) {
        if ("1".equals(System.getenv(REQUIRE_VARIABLE))) {
            assertTrue(present, missing + ", and " + REQUIRE_VARIABLE + "=1 requires it");
        }
        assumeTrue(present, missing + "; this check needs it");
    }

    private static boolean runs(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
