package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Namespace;
import dev.verbs4j.nvmeof.controller.Subsystem;
import dev.verbs4j.nvmeof.controller.Target;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * {@code TargetMain --control PATH}: a running target takes subsystems and gives them up by
 * lines written to a named pipe, as an administrator adds and removes them on the kernel's
 * target through configfs, without a restart that would cut every other host off.
 * <pre>
 * offer NQN HOSTNQN|any NAMESPACE...   (each NAMESPACE as --namespace takes it)
 * withdraw NQN                         (its controllers end; its namespaces close)
 * </pre>
 * Each line is answered on {@code out}: {@code control: offered NQN}, {@code control:
 * withdrew NQN}, or {@code control: error: ...}. A writer that closes the pipe is followed by
 * the next one.
 */
final class ControlFifo {
    private final Path fifo;
    private final Target target;
    private final PrintStream out;
    private int offered;

    ControlFifo(Path fifo, Target target, int subsystemsAtStart, PrintStream out) {
        this.fifo = fifo;
        this.target = target;
        this.out = out;
        this.offered = subsystemsAtStart;
    }

    /** Reads and applies commands until the thread is interrupted or the pipe cannot be read. */
    void run() {
        while (!Thread.currentThread().isInterrupted()) {
            try (BufferedReader in = Files.newBufferedReader(fifo, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!line.isBlank()) {
                        out.println("control: " + apply(line.trim().split("\\s+")));
                        out.flush();
                    }
                }
            } catch (IOException e) {
                out.println("control: error: " + fifo + ": " + e.getMessage());
                return;
            }
        }
    }

    /** Applies one command; returns the answer. */
    String apply(String[] words) {
        try {
            if (words[0].equals("offer") && words.length >= 4) {
                List<Namespace> namespaces = new ArrayList<>();
                for (String spec : Arrays.copyOfRange(words, 3, words.length)) {
                    namespaces.add(TargetMain.namespace(spec));
                }
                Set<String> hosts = words[2].equals("any") ? Set.of() : Set.of(words[2]);
                Subsystem s = TargetMain.subsystem(words[1], offered++, namespaces, hosts);
                try {
                    target.offer(s).get();
                } catch (ExecutionException e) {
                    close(s);
                    throw e;
                }
                return "offered " + words[1];
            }
            if (words[0].equals("withdraw") && words.length == 2) {
                Subsystem s = target.withdraw(words[1]).get();
                if (s == null) {
                    return "error: no subsystem " + words[1];
                }
                close(s);
                return "withdrew " + words[1];
            }
            return "error: not a command: " + String.join(" ", words)
                    + " (offer NQN HOSTNQN|any NAMESPACE... or withdraw NQN)";
        } catch (ExecutionException e) {
            return "error: " + e.getCause().getMessage();
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return "error: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "error: interrupted";
        }
    }

    private static void close(Subsystem s) {
        for (Namespace ns : s.namespaces()) {
            try {
                ns.close();
            } catch (IOException e) {
                // The namespace is gone from every host already; a file that will not close is the system's to report.
            }
        }
    }
}
