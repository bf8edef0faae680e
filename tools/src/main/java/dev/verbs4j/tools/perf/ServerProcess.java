package dev.verbs4j.tools.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code verbs4j perf --server} on soft0 in a child process, started with this JVM's own
 * options (module path, native access, class path), so that it runs the same code the same
 * way; only the progress model is set. Its output is discarded; it exits after its client.
 */
final class ServerProcess {
    private final Process process;

    private ServerProcess(Process process) {
        this.process = process;
    }

    static ServerProcess start(String progress, int port) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // The child's own progress model; a recording or agent of this process is not the child's.
            if (!option.startsWith("-Dverbs4j.soft.progress=") && !option.startsWith("-XX:StartFlightRecording")
                    && !option.startsWith("-agent") && !option.startsWith("-javaagent")) {
                command.add(option);
            }
        }
        command.addAll(List.of("-Dverbs4j.soft.progress=" + progress, "-cp", System.getProperty("java.class.path"),
                "dev.verbs4j.tools.Verbs4jCli", "perf", "--server", "--device", "soft0", "--port", Integer.toString(port)));
        try {
            return new ServerProcess(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a perf server process", e);
        }
    }

    /** Waits for the server to finish after its client left; ends it if it does not. */
    void awaitExit() {
        try {
            if (!process.waitFor(PerfClient.TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
