package dev.verbs4j.conformance.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An agent started by the test process: the same Java and class path, the given JVM
 * options (e.g. the soft devices it may use), listening on a free loopback port. What it
 * prints goes to a log file.
 */
final class AgentProcess {
    private final Process process;
    private final Path log;
    private final InetSocketAddress address;

    private AgentProcess(Process process, Path log, InetSocketAddress address) {
        this.process = process;
        this.log = log;
        this.address = address;
    }

    /** Starts an agent and waits until it listens. */
    static AgentProcess start(List<String> jvmOptions, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(AgentMain.class.getName());
        command.add("--listen");
        command.add("127.0.0.1:0");
        command.add(AgentMain.EXIT_WITH_PARENT);
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            OutputStream logFile = Files.newOutputStream(log);
            String line;
            while ((line = out.readLine()) != null) {
                logFile.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                if (line.startsWith(Protocol.LISTENING)) {
                    InetSocketAddress address = AgentMain.parseAddress(line.substring(Protocol.LISTENING.length()));
                    Thread.ofPlatform().daemon().name("agent log").start(() -> copy(out, logFile));
                    return new AgentProcess(p, log, address);
                }
            }
            logFile.close();
            throw new IllegalStateException("the conformance agent exited before listening (status " + p.waitFor()
                    + "); its output: " + log.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the conformance agent", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the conformance agent", e);
        }
    }

    private static void copy(BufferedReader from, OutputStream to) {
        try (to) {
            for (String line = from.readLine(); line != null; line = from.readLine()) {
                to.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                to.flush();
            }
        } catch (IOException e) {
            // The agent is gone; its log ends here.
        }
    }

    InetSocketAddress address() {
        return address;
    }

    /** Where to look when the agent went away. */
    String exitNote() {
        return process.isAlive() ? " (its output: " + log.toAbsolutePath() + ")"
                : " (it exited with status " + process.exitValue() + "; its output: " + log.toAbsolutePath() + ")";
    }

    /** Waits a little for the agent to exit after its session ended, then ends it. */
    void stop() {
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
