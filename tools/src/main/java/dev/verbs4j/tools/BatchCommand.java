package dev.verbs4j.tools;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code verbs4j batch [--timeout-s N]}: runs verbs4j commands one after another in this JVM,
 * read from standard input, one per line: the file that takes the command's output, then its
 * arguments, separated by tabs. For a script that runs many short commands, where a JVM
 * start each (its class loading and compilation) would cost more than the commands do.
 * <p>
 * When a command ends, its exit status goes to the output file's name plus {@code .rc}
 * (written under another name and renamed, so that a script waiting for it never reads it
 * half written) and {@code exit N} to standard output. A command that fails ends the batch
 * with its status: what it may have left open (a bound port, a device) must not meet the
 * next command, which the script then runs in a new batch. A command still running after
 * the timeout (default 90 s) has every thread's stack written to its output, and the batch
 * ends with status 124, as {@code timeout} does.
 */
final class BatchCommand {
    static final int TIMED_OUT = 124;

    private BatchCommand() {
    }

    /** What runs one command: its arguments, the stream for its output; returns its status. */
    interface Runner {
        int run(String[] command, PrintStream output) throws Exception;
    }

    static int run(String[] args, InputStream commands, PrintStream out, PrintStream err) {
        return run(args, commands, out, err, (command, output) -> Verbs4jCli.run(command, output, output));
    }

    static int run(String[] args, InputStream commands, PrintStream out, PrintStream err, Runner runner) {
        long timeoutMs = 90_000;
        if (args.length == 2 && args[0].equals("--timeout-s")) {
            timeoutMs = Long.parseLong(args[1]) * 1000;
        } else if (args.length != 0) {
            err.println("usage: verbs4j batch [--timeout-s SECONDS]   (lines of OUTPUT-FILE<TAB>ARG<TAB>ARG... on standard input)");
            return 2;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(commands, StandardCharsets.UTF_8));
        try {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isBlank()) {
                    continue;
                }
                String[] fields = line.split("\t");
                int status = runOne(runner, Path.of(fields[0]), Arrays.copyOfRange(fields, 1, fields.length), timeoutMs);
                out.println("exit " + status);
                out.flush();
                if (status != 0) {
                    return status;
                }
            }
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException("verbs4j batch: reading the commands failed", e);
        }
    }

    /** Runs one command with its output (the JVM's standard streams included) in {@code output}; returns its status. */
    private static int runOne(Runner runner, Path output, String[] command, long timeoutMs) throws IOException {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        int status;
        try (PrintStream log = new PrintStream(new FileOutputStream(output.toFile()), true, StandardCharsets.UTF_8)) {
            System.setOut(log);
            System.setErr(log);
            int[] result = {TIMED_OUT};
            // A daemon: one that outlasts the timeout does not hold the JVM as the batch ends.
            Thread worker = Thread.ofPlatform().daemon().name("verbs4j-batch-" + (command.length == 0 ? "help" : command[0])).start(
                    () -> result[0] = runCaught(runner, command, log));
            try {
                worker.join(timeoutMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (worker.isAlive()) {
                log.println("verbs4j batch: '" + String.join(" ", command) + "' still ran after " + timeoutMs / 1000
                        + " s; every thread's stack:");
                printStacks(log);
                status = TIMED_OUT;
            } else {
                status = result[0];
            }
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        Path rc = output.resolveSibling(output.getFileName() + ".rc");
        Path written = output.resolveSibling(output.getFileName() + ".rc.part");
        Files.writeString(written, status + "\n");
        Files.move(written, rc, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return status;
    }

    /** The command's status; 1 when it threw (what {@link Verbs4jCli#run} does not catch: an error). */
    private static int runCaught(Runner runner, String[] command, PrintStream log) {
        try {
            return runner.run(command, log);
        } catch (Throwable t) {
            t.printStackTrace(log);
            return 1;
        }
    }

    private static void printStacks(PrintStream log) {
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            log.println("\"" + e.getKey().getName() + "\" " + e.getKey().getState());
            for (StackTraceElement frame : e.getValue()) {
                log.println("    at " + frame);
            }
        }
    }
}
