package dev.verbs4j.docker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Where the build put things, as the pom passes them to the tests (with defaults for an IDE run from the module). */
final class ModulePaths {
    private ModulePaths() {
    }

    /** The image's build context: the module folder, with the Dockerfile and entrypoint.sh. */
    static Path contextDir() {
        return Path.of(System.getProperty("verbs4j.docker.contextDir", "")).toAbsolutePath();
    }

    /** What {@code package} collected for the image ({@code lib/}). */
    static Path imageDir() {
        return Path.of(System.getProperty("verbs4j.docker.imageDir", "target/image")).toAbsolutePath();
    }

    /** Where the container's report is copied to. */
    static Path reportDir() {
        return Path.of(System.getProperty("verbs4j.docker.reportDir", "target/conformance-report")).toAbsolutePath();
    }

    /** A base image other than the Dockerfile's default, if one was asked for. */
    static Optional<String> baseImage() {
        return Optional.ofNullable(System.getProperty("verbs4j.docker.baseImage")).map(String::strip).filter(s -> !s.isEmpty());
    }

    /** The suite's label: the report's file name and its matrix column. */
    static String label() {
        return property("verbs4j.docker.label").orElse("ibverbs-kernel-rxe");
    }

    /** A two-container run's label (SoftRxeContainersTest, SoftToRxeContainersTest), else the test's own. */
    static String containersLabel(String testsOwn) {
        return property("verbs4j.docker.containersLabel").orElse(testsOwn);
    }

    /**
     * An image already built from this module's Dockerfile and class path in this run (the micro-VM's previous
     * step built it), to use as it is instead of building again.
     */
    static Optional<String> builtImage() {
        return property("verbs4j.docker.builtImage");
    }

    /** Images whose layers the build may reuse although they were loaded, not built, here ({@code docker build --cache-from}). */
    static List<String> cacheFrom() {
        return words(property("verbs4j.docker.cacheFrom").orElse(""));
    }

    /** Extra ConformanceMain options, blank-separated (the container's command). */
    static List<String> suiteArgs() {
        return words(property("verbs4j.docker.suiteArgs").orElse(""));
    }

    /** The container's environment beyond the image's: RXE_NETDEV and JAVA_TOOL_OPTIONS, where given. */
    static Map<String, String> containerEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        property("verbs4j.docker.netdev").ifPresent(netdev -> env.put("RXE_NETDEV", netdev));
        property("verbs4j.docker.javaOptions").ifPresent(options -> env.put("JAVA_TOOL_OPTIONS", options));
        return env;
    }

    private static Optional<String> property(String name) {
        return Optional.ofNullable(System.getProperty(name)).map(String::strip).filter(s -> !s.isEmpty());
    }

    private static List<String> words(String text) {
        return text.isBlank() ? List.of() : List.of(text.strip().split("\\s+"));
    }

    /** The bound on the image build and, separately, on the suite's run. */
    static Duration timeout() {
        return Duration.ofMinutes(Long.parseLong(System.getProperty("verbs4j.docker.timeoutMinutes", "30")));
    }
}
