package dev.verbs4j.docker;

import java.nio.file.Path;
import java.time.Duration;
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

    /** The bound on the image build and, separately, on the suite's run. */
    static Duration timeout() {
        return Duration.ofMinutes(Long.parseLong(System.getProperty("verbs4j.docker.timeoutMinutes", "30")));
    }
}
