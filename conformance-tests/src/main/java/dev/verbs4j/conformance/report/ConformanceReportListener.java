package dev.verbs4j.conformance.report;

import dev.verbs4j.conformance.fixture.ConformanceConfig;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Records every conformance case of a run and writes the report when the run ends
 * ({@link ReportFiles}), then prints a summary. Registered through
 * {@code META-INF/services}, so Surefire, IDEs and {@code ConformanceMain} all produce
 * the same report; test plans without conformance cases leave no report.
 * It has no libibverbs counterpart: it is the suite's JUnit listener.
 */
public final class ConformanceReportListener implements TestExecutionListener {
    private static final String SUITE_PACKAGE = ConformanceConfig.SUITE_PACKAGE + ".";
    /** The JUnit Platform makes it through {@link java.util.ServiceLoader}. */
    public ConformanceReportListener() {
    }

    /** The tag {@code ConformanceSuite} puts on every case. */
    static final String TAG = "conformance";

    private final Map<String, CaseResult> results = new LinkedHashMap<>();
    private final Map<String, Long> startedNs = new LinkedHashMap<>();
    private TestPlan plan;
    private Instant started;
    private long startNs;

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        this.plan = plan;
        results.clear();
        startedNs.clear();
        RunCapabilities.reset();
        started = Instant.now();
        startNs = System.nanoTime();
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        startedNs.put(id.getUniqueId(), System.nanoTime());
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (id.isTest()) {
            record(id, Outcome.SKIP, reason);
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        Optional<Throwable> error = result.getThrowable();
        switch (result.getStatus()) {
            case SUCCESSFUL -> {
                if (id.isTest()) {
                    record(id, Outcome.PASS, "");
                }
            }
            case ABORTED -> {
                if (id.isTest()) {
                    record(id, Outcome.SKIP, error.map(ConformanceReportListener::skipReason).orElse("aborted"));
                }
            }
            case FAILED -> record(id, Outcome.FAIL, error.map(ConformanceReportListener::failure).orElse("failed"));
        }
    }

    private void record(TestIdentifier id, Outcome outcome, String detail) {
        Optional<String> caseId = caseId(id, plan::getParent);
        if (caseId.isEmpty() && outcome == Outcome.FAIL && id.getParentId().isEmpty() && !results.isEmpty()) {
            // The engine itself failed, e.g. closing the shared devices at the end of the run.
            caseId = Optional.of("run/" + id.getDisplayName() + "#(engine)");
        }
        if (caseId.isEmpty()) {
            return;
        }
        Long start = startedNs.remove(id.getUniqueId());
        long ms = start == null ? 0 : (System.nanoTime() - start) / 1_000_000;
        String className = id.getSource().map(ConformanceReportListener::className).orElse("");
        String name = id.isTest() ? id.getDisplayName() : id.getDisplayName() + " (class setup or teardown)";
        results.put(caseId.get(), new CaseResult(caseId.get(), className, name, outcome, detail, ms));
    }

    /**
     * {@code family/Class#method} for a conformance method, {@code family/Class#(class)} for
     * a failed class; empty for anything not tagged {@value #TAG} (other tests on the class path).
     * A generated case ({@code DynamicTest}) carries no tags of its own: it is a conformance
     * case when its factory is, and its member is the method name of its {@code method:} source
     * URI, e.g. {@code access/RemoteAccessMatrixTest#write.mw2.firstByteBeforeWindow}.
     *
     * @param parent the parent of an identifier in the running plan ({@code TestPlan::getParent})
     */
    static Optional<String> caseId(TestIdentifier id, Function<TestIdentifier, Optional<TestIdentifier>> parent) {
        Optional<TestSource> source = id.getSource();
        if (source.isEmpty() || !tagged(id, parent)) {
            return Optional.empty();
        }
        String className = className(source.get());
        if (!className.startsWith(SUITE_PACKAGE)) {
            return Optional.empty();
        }
        String rest = className.substring(SUITE_PACKAGE.length());
        int dot = rest.indexOf('.');
        if (dot < 0) {
            return Optional.empty();
        }
        String family = rest.substring(0, dot);
        String simple = rest.substring(rest.lastIndexOf('.') + 1);
        String member = source.get() instanceof MethodSource m ? m.getMethodName() : "(class)";
        return Optional.of(family + "/" + simple + "#" + member);
    }

    private static boolean tagged(TestIdentifier id, Function<TestIdentifier, Optional<TestIdentifier>> parent) {
        for (Optional<TestIdentifier> at = Optional.of(id); at.isPresent(); at = parent.apply(at.get())) {
            if (at.get().getTags().stream().anyMatch(t -> t.getName().equals(TAG))) {
                return true;
            }
        }
        return false;
    }

    private static String className(TestSource source) {
        if (source instanceof MethodSource m) {
            return m.getClassName();
        }
        if (source instanceof ClassSource c) {
            return c.getClassName();
        }
        return "";
    }

    private static String skipReason(Throwable t) {
        String message = t.getMessage() == null ? t.toString() : t.getMessage();
        return t instanceof TestAbortedException ? message.replaceFirst("^Assumption failed: ", "") : message;
    }

    private static String failure(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage();
        if (t instanceof AssertionFailedError) {
            return message;
        }
        String text = t.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
        return t.getCause() != null && t.getCause() != t ? text + " (cause: " + t.getCause() + ")" : text;
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        if (results.isEmpty()) {
            return;
        }
        RunReport run = runReport(new ArrayList<>(results.values()));
        List<String> warnings = new ArrayList<>();
        Path dir = ReportFiles.directory();
        List<Path> files;
        try {
            files = ReportFiles.write(dir, run, warnings);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the conformance report to " + dir, e);
        }
        System.out.print(RunSummary.format(run, files, warnings));
        System.out.flush();
    }

    private RunReport runReport(List<CaseResult> cases) {
        ConformanceConfig config = ConformanceConfig.fromSystemProperties();
        String device = "none";
        String peerDevice = "none";
        try {
            ConformanceConfig.ResolvedDevices devices = config.resolve();
            device = devices.local().name();
            peerDevice = devices.remote().name();
        } catch (RuntimeException e) {
            // No device: the cases were skipped with the reason; the report still names the providers.
        }
        String environment = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version");
        // This host's kernel: the suite's peer agents run beside it (loopback or a network namespace).
        String kernel = "Linux".equals(System.getProperty("os.name")) ? System.getProperty("os.version") : "";
        return new RunReport(config.label(), config.provider(), device, config.peerProvider(), peerDevice,
                started.toString(), (System.nanoTime() - startNs) / 1_000_000, environment, kernel,
                RunCapabilities.ofCurrentRun(), cases, ConformanceConfig.excluded());
    }
}
