package dev.verbs4j.conformance.access;

import dev.verbs4j.conformance.fixture.ConformanceConfig;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Testbed;
import dev.verbs4j.conformance.fixture.Testbeds;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.net.URI;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The remote access matrix: every remote operation through every kind of key under every
 * check a responder makes, generated from the tables in this package. Each case's source
 * is {@code method:<this class>#<operation.kind.check>}, so the report names it
 * {@code access/RemoteAccessMatrixTest#write.mw2.firstByteBeforeWindow}; its display name
 * says what it expects and which IBTA statements and rxe checks it stands for. A
 * combination that makes no sense, or a capability a device lacks, is a skip with the reason.
 * A run can leave some cases out ({@code --exclude access.RemoteAccessMatrixTest#*.mw1.*}); its report says so.
 */
@ConformanceSuite
class RemoteAccessMatrixTest {
    /** As {@link ConformanceSuite}'s limit for a case: a provider that hangs fails the case, not the run. */
    private static final Duration CASE_LIMIT = Duration.ofSeconds(30);

    @TestFactory
    Stream<DynamicTest> cases(Testbeds beds) {
        return AccessCase.all().stream().filter(c -> !ConformanceConfig.leftOut(RemoteAccessMatrixTest.class, c.key()))
                .map(c -> DynamicTest.dynamicTest(c.displayName(),
                        URI.create("method:" + RemoteAccessMatrixTest.class.getName() + "#" + c.key()),
                        () -> {
                            // The run's devices open once, in whichever case comes first: outside the limit, as
                            // the other classes' fixtures open them outside their @Timeout, since that opening
                            // carries the run's cold start (an agent's first device, both sides' classes).
                            beds.openDevices();
                            assertTimeoutPreemptively(CASE_LIMIT, () -> {
                                try (Testbed bed = beds.open()) {
                                    c.run(bed);
                                }
                            });
                        }));
    }
}
