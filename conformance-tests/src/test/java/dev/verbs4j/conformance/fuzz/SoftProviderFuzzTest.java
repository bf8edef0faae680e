package dev.verbs4j.conformance.fuzz;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 100,000 random calls on the soft provider, in a child JVM (see {@link FuzzLauncher}): a
 * crash there leaves an {@code hs_err} file this test reports instead of ending the test
 * run without a word. The seed is fixed, so the test command is repeatable; another seed
 * explores further ({@code -Dverbs4j.fuzz.seed=N}), and a failure names the seed that
 * replays it. The soft device listens on its own address, apart from the suite's.
 */
class SoftProviderFuzzTest {
    private static final int CALLS = 100_000;
    private static final long SEED = Long.getLong("verbs4j.fuzz.seed", 17);

    @Test
    void randomCallsEndOnlyInDocumentedOutcomesAndLeaveNothingBehind() throws Exception {
        String classpath = Files.readString(Path.of("target/conformance-classpath.txt")).strip()
                + ":" + Path.of("target/classes").toAbsolutePath();
        FuzzOptions options = new FuzzOptions("soft", null, CALLS, SEED, 2_000);
        FuzzLauncher.Result result = FuzzLauncher.launch(options, Path.of("target/fuzz"),
                List.of("-Dverbs4j.soft.devices=fuzz0=127.0.0.9:27941", "-XX:TieredStopAtLevel=1"), classpath,
                Duration.ofMinutes(3));
        System.out.printf("fuzz soft: %d calls, seed %d, %.1f s in the child JVM (log %s)%n", CALLS, SEED,
                result.seconds(), result.log());
        assertTrue(result.passed(), () -> "the fuzzer failed (replay with -Dverbs4j.fuzz.seed=" + SEED + "): "
                + String.join("\n", result.problems()));
    }
}
