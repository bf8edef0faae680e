package dev.verbs4j.conformance;

import dev.verbs4j.Device;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceConfig;
import dev.verbs4j.conformance.report.Agreement;
import dev.verbs4j.conformance.report.CaseAgreements;
import dev.verbs4j.conformance.report.ReportFiles;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Runs the conformance suite against the provider and devices given on the command line
 * and writes the same report the build writes ({@code <label>.json} plus the merged
 * matrix). Exit status: 0 when no case failed, 1 when some did, 2 for a usage error. With
 * {@code --merge} it only rebuilds the matrix and prints its agreement line: 0 when every
 * case that ran on two or more columns agrees or differs only by listed findings, 1 when
 * some case disagrees unexplained (each is printed) or the reports cannot be merged.
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp "$(cat target/conformance-classpath.txt):target/classes" \
 *      dev.verbs4j.conformance.ConformanceMain --provider ibverbs --device rxe0 --peer-device rxe1
 * </pre>
 * Its counterpart in rdma-core is pyverbs' {@code tests/run_tests.py}, the runner of rdma-core's own suite; libibverbs itself has none.
 */
public final class ConformanceMain {
    /** Separates the option groups of runs made one after another in one JVM. */
    static final String NEXT = "--next";
    private static final String SUITE_PACKAGE = ConformanceConfig.SUITE_PACKAGE;
    private static final Map<String, String> PROPERTY_OPTIONS = Map.ofEntries(
            Map.entry("--provider", ConformanceConfig.PROVIDER),
            Map.entry("--device", ConformanceConfig.DEVICE),
            Map.entry("--peer-provider", ConformanceConfig.PEER_PROVIDER),
            Map.entry("--peer-device", ConformanceConfig.PEER_DEVICE),
            Map.entry("--peer-agent", ConformanceConfig.PEER_AGENT),
            Map.entry("--agent-jvm-options", ConformanceConfig.AGENT_JVM_OPTIONS),
            Map.entry("--shared-folder", ConformanceConfig.SHARED_FOLDER),
            Map.entry("--agent-memory", ConformanceConfig.AGENT_MEMORY),
            Map.entry("--label", ConformanceConfig.LABEL),
            Map.entry("--report-dir", ReportFiles.DIR_PROPERTY),
            Map.entry("--timeout-ms", Completions.TIMEOUT_PROPERTY),
            Map.entry("--retry-count", ConformanceConfig.RETRY_COUNT),
            Map.entry("--connect", "verbs4j.conformance.connect"),
            Map.entry("--gid", ConformanceConfig.GID));

    private ConformanceMain() {
    }

    /**
     * Runs the suite and exits with {@link #run}'s status.
     *
     * @param args the options {@code --help} lists
     */
    public static void main(String[] args) {
        System.exit(runEach(args, System.out));
    }

    /**
     * Runs each group of {@code args} between {@value #NEXT} separators as its own run, one after
     * another in this JVM: a column each, without a JVM start and a device open each. Every group
     * starts from the options the JVM started with; none inherits another's.
     *
     * @param args option groups, separated by {@value #NEXT}
     * @param out where each run's summary and report paths go
     * @return the highest of the runs' statuses
     */
    public static int runEach(String[] args, PrintStream out) {
        List<List<String>> groups = new ArrayList<>();
        groups.add(new ArrayList<>());
        for (String a : args) {
            if (a.equals(NEXT)) {
                groups.add(new ArrayList<>());
            } else {
                groups.getLast().add(a);
            }
        }
        if (groups.size() == 1) {
            return run(args, out);
        }
        Map<String, String> startedWith = new HashMap<>();
        for (String property : runProperties()) {
            startedWith.put(property, System.getProperty(property));
        }
        int worst = 0;
        for (List<String> group : groups) {
            startedWith.forEach((property, value) -> {
                if (value == null) {
                    System.clearProperty(property);
                } else {
                    System.setProperty(property, value);
                }
            });
            worst = Math.max(worst, run(group.toArray(String[]::new), out));
        }
        return worst;
    }

    /** The system properties a run's options set. */
    private static List<String> runProperties() {
        List<String> properties = new ArrayList<>(PROPERTY_OPTIONS.values());
        properties.add(ConformanceConfig.EXCLUDE);
        return properties;
    }

    /**
     * Runs with {@code args}; returns the exit status.
     *
     * @param args the options {@code --help} lists
     * @param out where the summary and the report paths go
     * @return 0 when no case failed, 1 when some failed, 2 for a usage error
     */
    public static int run(String[] args, PrintStream out) {
        List<DiscoverySelector> selectors = new ArrayList<>();
        List<String> excluded = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help", "-h" -> {
                    out.print(usage());
                    return 0;
                }
                case "--list" -> {
                    listDevices(out);
                    return 0;
                }
                case "--merge" -> {
                    return merge(ReportFiles.directory(), out);
                }
                default -> {
                    if (i + 1 >= args.length || !(PROPERTY_OPTIONS.containsKey(a) || a.equals("--select") || a.equals("--exclude"))) {
                        out.print("unknown option or missing value: " + a + "\n" + usage());
                        return 2;
                    }
                    String value = args[++i];
                    if (a.equals("--select")) {
                        selectors.add(selector(value));
                    } else if (a.equals("--exclude")) {
                        excluded.add(value);
                    } else {
                        System.setProperty(PROPERTY_OPTIONS.get(a), value);
                    }
                }
            }
        }
        if (selectors.isEmpty()) {
            selectors.add(DiscoverySelectors.selectPackage(SUITE_PACKAGE));
        }
        if (!excluded.isEmpty()) {
            System.setProperty(ConformanceConfig.EXCLUDE, String.join(",", excluded));
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .filters(ClassNameFilter.includeClassNamePatterns(".*Test"))
                .filters(ConformanceConfig.excluded().stream().filter(w -> !w.contains("#"))
                        .map(w -> ClassNameFilter.excludeClassNamePatterns(classPattern(w)))
                        .toArray(ClassNameFilter[]::new))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request, summary);
        if (summary.getSummary().getTestsFoundCount() == 0) {
            out.println("no conformance case matched " + selectors);
            return 2;
        }
        return summary.getSummary().getTotalFailureCount() == 0 ? 0 : 1;
    }

    /**
     * {@code base} selects a family; anything with a dot one class, named in full or from its
     * family ({@code errors.ResourceLifetimeTest}).
     */
    static DiscoverySelector selector(String value) {
        String name = ConformanceConfig.suiteName(value);
        return value.contains(".") ? DiscoverySelectors.selectClass(name) : DiscoverySelectors.selectPackage(name);
    }

    /** The class names {@code value} ({@code --select}'s form) stands for, as a pattern. */
    static String classPattern(String value) {
        String name = Pattern.quote(ConformanceConfig.suiteName(value));
        return value.contains(".") ? name : name + "\\..*";
    }

    private static void listDevices(PrintStream out) {
        for (Provider p : Verbs.providers()) {
            List<Device> devices = p.devices();
            out.println(p.name() + ": " + (devices.isEmpty()
                    ? "no devices" + p.unavailableReason().map(r -> " (" + r + ")").orElse("")
                    : devices.stream().map(Device::name).toList()));
        }
    }

    /** Rebuilds the matrix in {@code dir}; returns 1 when a case disagrees across columns unexplained. */
    static int merge(Path dir, PrintStream out) {
        List<String> warnings = new ArrayList<>();
        ReportFiles.Merged merged;
        try {
            merged = ReportFiles.rewriteMatrix(dir, warnings);
        } catch (IOException e) {
            out.println("cannot merge reports: " + e);
            return 1;
        }
        for (Path p : merged.files()) {
            out.println("report: " + p.toAbsolutePath().normalize());
        }
        warnings.forEach(w -> out.println("WARNING " + w));
        CaseAgreements agreements = merged.agreements();
        agreements.disagreements().forEach((id, columns) ->
                out.println("DISAGREE " + id + ": fails unexplained in " + String.join(", ", columns)));
        out.println(agreements.summaryLine());
        // scripts/vm-evaluate.py fails the VM run on these; the merge only shows them.
        merged.pyverbsSummary().ifPresent(out::println);
        merged.pyverbsProblems().forEach(p -> out.println("PYVERBS " + p));
        return agreements.count(Agreement.DISAGREE) == 0 ? 0 : 1;
    }

    private static String usage() {
        return """
                usage: ConformanceMain [options] [--next options]...
                  --next                the options after it are another run, made after this one in the same
                                        JVM (each run a column; none inherits another's options)
                  --provider NAME       local provider (default soft)
                  --device NAME         local device (default: the provider's first)
                  --peer-provider NAME  remote provider (default: the local provider)
                  --peer-device NAME    remote device (default: the peer provider's second device, else its first)
                  --peer-agent WHERE    the remote side runs in an agent process: HOST:PORT of a running one
                                        (verbs4j conformance-agent --listen HOST:PORT), or spawn to start one here
                  --agent-jvm-options S JVM options of a spawned agent, e.g. "-Dverbs4j.soft.devices=soft1=127.0.0.2"
                  --shared-folder DIR   tmpfs folder both processes map the cases' memory from (default /dev/shm)
                  --agent-memory HOW    how the agent's memory is shared: auto (default: the shared folder when the
                                        agent sees it, else over the control channel), files, or channel (the
                                        agent may then be on another host)
                  --label TEXT          run label and report file name (default provider-peerProvider)
                  --report-dir DIR      report folder (default target/conformance)
                  --timeout-ms N        how long a case waits for an expected completion (default 5000)
                  --retry-count N       transport retries of the RC queue pairs, 0-7 (default 7; 6 on a lossy
                                        link, where rxe at 7 resends a lost fatal NAK's request for ever)
                  --connect HOW         how RC pairs connect: memory (default, attributes set directly) or cm
                                        (through the connection manager, as librdmacm applications do)
                  --gid KIND            which GID each device is addressed by: ipv4 (default, the first IPv4-mapped),
                                        ipv6 (the first global IPv6) or ipv6-link-local (the first fe80::/10)
                  --select WHAT         a family (base, errors, misuse, cm, flush, atomicwrite, memwindow, odp, access) or a class (errors.ResourceLifetimeTest); repeatable
                  --exclude WHAT        leaves out a family or a class, named as --select names them, or the
                                        generated cases of a class whose key matches a glob (CLASS#GLOB, e.g.
                                        access.RemoteAccessMatrixTest#*.mw1.*); repeatable; the report lists them
                  --list                list providers and devices, then exit
                  --merge               only rebuild the matrix from the JSON reports in the report folder;
                                        exit 1 when a case's columns disagree without a listed finding
                """;
    }
}
