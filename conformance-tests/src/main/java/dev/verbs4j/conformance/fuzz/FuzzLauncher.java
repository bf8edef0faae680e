package dev.verbs4j.conformance.fuzz;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs {@link FuzzMain} in a child JVM and judges it from outside, where a crash cannot hide:
 * the child must exit 0 within the time limit, leave no {@code hs_err} file (the JVM writes
 * one into the work folder when it crashes, {@code -XX:ErrorFile}), and print no engine
 * fault (a soft device prints "engine fault" on its first). The child's output goes to
 * {@code fuzz-PROVIDER.log} in the work folder.
 *
 * <pre>
 * FuzzLauncher --work-dir DIR [--time-limit-s N] [--jvm-option OPTION]... [FuzzMain options]
 * </pre>
 * Exits 0 when the run passed, else 1, printing each problem.
 * It has no libibverbs counterpart: rdma-core ships no fuzzer of its API.
 */
public final class FuzzLauncher {
    /**
     * The outcome of one child run.
     * It has no libibverbs counterpart: it is the fuzzer's verdict.
     *
     * @param problems what went wrong (a crash, a hang, leaked descriptors or memory); empty when it passed
     * @param seconds how long the child ran
     * @param log the child's output
     */
    public record Result(List<String> problems, double seconds, Path log) {
        /**
         * Whether the child run passed.
         *
         * @return true when there is no problem
         */
        public boolean passed() {
            return problems.isEmpty();
        }
    }

    private FuzzLauncher() {
    }

    /**
     * Launches one child run and exits 0 when it passed, else 1.
     *
     * @param args the options above
     * @throws Exception when the child cannot be started or awaited
     */
    public static void main(String[] args) throws Exception {
        Path workDir = null;
        Duration limit = Duration.ofMinutes(4);
        List<String> jvmOptions = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--work-dir" -> workDir = Path.of(args[i + 1]);
                case "--time-limit-s" -> limit = Duration.ofSeconds(Long.parseLong(args[i + 1]));
                case "--jvm-option" -> jvmOptions.add(args[i + 1]);
                default -> rest.addAll(List.of(args[i], args[i + 1]));
            }
        }
        if (workDir == null) {
            throw new IllegalArgumentException("--work-dir is required");
        }
        FuzzOptions options = FuzzOptions.parse(rest.toArray(String[]::new));
        Result result = launch(options, workDir, jvmOptions, System.getProperty("java.class.path"), limit);
        System.out.printf("fuzz %s: %d calls, seed %d, %.1f s in the child JVM: %s (log %s)%n", options.provider(),
                options.calls(), options.seed(), result.seconds(), result.passed() ? "passed" : "FAILED", result.log());
        result.problems().forEach(p -> System.out.println("FUZZ PROBLEM " + p));
        System.exit(result.passed() ? 0 : 1);
    }

    /** The class path with every entry absolute: the child runs in the work folder. */
    private static String absolute(String classpath) {
        return Stream.of(classpath.split(File.pathSeparator)).filter(e -> !e.isEmpty())
                .map(e -> Path.of(e).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * Runs the child and judges it.
     *
     * @param classpath the child's class path (this module's classes and dependencies)
     * @param limit     how long the child may run before it counts as hung and is killed
     * @param options the child's fuzzing options
     * @param workDir the folder the child runs in, created if needed
     * @param jvmOptions extra options for the child's JVM
     * @return what the child did
     * @throws IOException when the folder or the log cannot be written
     * @throws InterruptedException when waiting for the child is interrupted
     */
    public static Result launch(FuzzOptions options, Path workDir, List<String> jvmOptions, String classpath,
                                Duration limit) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        try (Stream<Path> old = Files.list(workDir)) {
            for (Path p : (Iterable<Path>) old::iterator) {
                if (p.getFileName().toString().startsWith("hs_err")) {
                    Files.delete(p);
                }
            }
        }
        Path log = workDir.resolve("fuzz-" + options.provider() + ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:ErrorFile=" + workDir.toAbsolutePath().resolve("hs_err_pid%p.log")));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", absolute(classpath), FuzzMain.class.getName()));
        command.addAll(options.toArgs());
        long start = System.nanoTime();
        Process child = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean exited = child.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        List<String> problems = new ArrayList<>();
        if (!exited) {
            child.destroyForcibly().waitFor();
            problems.add("the child did not finish within " + limit.toSeconds() + " s: a call hung (seed "
                    + options.seed() + ")");
        } else if (child.exitValue() != 0) {
            problems.add("the child exited with " + child.exitValue() + " (seed " + options.seed() + "); see " + log);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        try (Stream<Path> files = Files.list(workDir)) {
            files.filter(p -> p.getFileName().toString().startsWith("hs_err"))
                    .forEach(p -> problems.add("the JVM crashed: " + p));
        }
        String output = Files.readString(log);
        if (output.contains("engine fault")) {
            problems.add("a soft engine faulted; see " + log);
        }
        output.lines().filter(l -> l.startsWith("FUZZ ")).forEach(problems::add);
        return new Result(problems, seconds, log);
    }
}
