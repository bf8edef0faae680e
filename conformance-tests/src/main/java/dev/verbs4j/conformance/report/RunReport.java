package dev.verbs4j.conformance.report;

import java.util.List;

/**
 * The results of one run of the suite against one provider/device pair.
 * It has no libibverbs counterpart: it is part of the suite's report.
 *
 * @param label        the pair's label, e.g. {@code soft-soft}; the JSON file is named after it
 * @param provider     local provider
 * @param device       local device
 * @param peerProvider remote provider
 * @param peerDevice   remote device
 * @param startedAt    ISO-8601 instant
 * @param durationMs   wall time of the run
 * @param environment  where it ran (OS, kernel, Java), free text
 * @param kernel       the Linux kernel release the run's devices ran on ({@code uname -r}), or empty
 * @param capabilities what each side's device reported
 * @param cases        every case, in execution order
 * @param excluded     the families and classes the run left out ({@code --exclude}), none for the whole suite
 */
public record RunReport(String label, String provider, String device, String peerProvider, String peerDevice,
                        String startedAt, long durationMs, String environment, String kernel,
                        RunCapabilities capabilities, List<CaseResult> cases, List<String> excluded) {
    /**
     * A report with an empty kernel for a null one, no capabilities for null ones, and copies of the
     * lists.
     */
    public RunReport {
        kernel = kernel == null ? "" : kernel;
        capabilities = capabilities == null ? RunCapabilities.NONE : capabilities;
        cases = List.copyOf(cases);
        excluded = excluded == null ? List.of() : List.copyOf(excluded);
    }

    /**
     * A report of the whole suite.
     *
     * @param label the pair's label
     * @param provider local provider
     * @param device local device
     * @param peerProvider remote provider
     * @param peerDevice remote device
     * @param startedAt ISO-8601 instant
     * @param durationMs wall time of the run
     * @param environment where it ran, free text
     * @param kernel the kernel release, or empty
     * @param capabilities what each side's device reported
     * @param cases every case, in execution order
     */
    public RunReport(String label, String provider, String device, String peerProvider, String peerDevice,
                     String startedAt, long durationMs, String environment, String kernel,
                     RunCapabilities capabilities, List<CaseResult> cases) {
        this(label, provider, device, peerProvider, peerDevice, startedAt, durationMs, environment, kernel, capabilities, cases,
                List.of());
    }

    /**
     * A report with no kernel release and no capabilities recorded.
     *
     * @param label the pair's label
     * @param provider local provider
     * @param device local device
     * @param peerProvider remote provider
     * @param peerDevice remote device
     * @param startedAt ISO-8601 instant
     * @param durationMs wall time of the run
     * @param environment where it ran, free text
     * @param cases every case, in execution order
     */
    public RunReport(String label, String provider, String device, String peerProvider, String peerDevice,
                     String startedAt, long durationMs, String environment, List<CaseResult> cases) {
        this(label, provider, device, peerProvider, peerDevice, startedAt, durationMs, environment, "", RunCapabilities.NONE, cases);
    }

    /**
     * How many cases had {@code outcome}.
     *
     * @param outcome the outcome
     * @return the count
     */
    public long count(Outcome outcome) {
        return cases.stream().filter(c -> c.outcome() == outcome).count();
    }

    /**
     * {@code provider/device → peerProvider/peerDevice}.
     *
     * @return the text
     */
    public String pairDescription() {
        return provider + "/" + device + " → " + peerProvider + "/" + peerDevice;
    }
}
