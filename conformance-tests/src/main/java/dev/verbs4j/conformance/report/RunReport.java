package dev.verbs4j.conformance.report;

import java.util.List;

/**
 * The results of one run of the suite against one provider/device pair.
 *
 * @param label        the pair's label, e.g. {@code soft-soft}; the JSON file is named after it
 * @param provider     local provider
 * @param device       local device
 * @param peerProvider remote provider
 * @param peerDevice   remote device
 * @param startedAt    ISO-8601 instant
 * @param durationMs   wall time of the run
 * @param environment  where it ran (OS, kernel, Java), free text
 * @param cases        every case, in execution order
 */
public record RunReport(String label, String provider, String device, String peerProvider, String peerDevice,
                        String startedAt, long durationMs, String environment, List<CaseResult> cases) {
    public RunReport {
        cases = List.copyOf(cases);
    }

    public long count(Outcome outcome) {
        return cases.stream().filter(c -> c.outcome() == outcome).count();
    }

    /** {@code provider/device → peerProvider/peerDevice}. */
    public String pairDescription() {
        return provider + "/" + device + " → " + peerProvider + "/" + peerDevice;
    }
}
