package dev.verbs4j.conformance.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cases where a provider's device answers differently from the IBTA specification, as listed
 * in {@code conformance-tests/findings/<provider>-<device prefix>.tsv}: one line per case, the
 * case id, a tab, and what the device does instead. A failing case listed for its run is a
 * finding, not a failure; the JSON report keeps the raw outcome.
 */
public final class Findings {
    /** The lists shipped with the suite, by file name without {@code .tsv}. */
    private static final List<String> LISTS = List.of("ibverbs-rxe");
    private static final String RESOURCE_DIR = "/dev/verbs4j/conformance/findings/";

    private final Map<String, Map<String, String>> byList;

    private Findings(Map<String, Map<String, String>> byList) {
        this.byList = byList;
    }

    /** No case is a finding. */
    public static Findings none() {
        return new Findings(Map.of());
    }

    /** The lists shipped with the suite. */
    public static Findings bundled() {
        Map<String, Map<String, String>> lists = new HashMap<>();
        for (String name : LISTS) {
            try (InputStream in = Findings.class.getResourceAsStream(RESOURCE_DIR + name + ".tsv")) {
                if (in == null) {
                    throw new IllegalStateException("findings list " + name + ".tsv is not on the class path");
                }
                lists.put(name, parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new Findings(lists);
    }

    /** The given lists, by name ({@code <provider>-<device prefix>}), each as the text of a TSV file. */
    public static Findings of(Map<String, String> listTexts) {
        Map<String, Map<String, String>> lists = new HashMap<>();
        listTexts.forEach((name, text) -> lists.put(name, parse(text)));
        return new Findings(lists);
    }

    private static Map<String, String> parse(String text) {
        Map<String, String> reasons = new HashMap<>();
        try (BufferedReader lines = new BufferedReader(new StringReader(text))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int tab = line.indexOf('\t');
                if (line.isBlank() || line.startsWith("#") || tab <= 0) {
                    continue;
                }
                reasons.put(line.substring(0, tab).trim(), line.substring(tab + 1).trim());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return reasons;
    }

    /** What the device does instead, if {@code c} failed in {@code run} and is listed for it; else null. */
    public String reason(RunReport run, CaseResult c) {
        if (c.outcome() != Outcome.FAIL) {
            return null;
        }
        for (Map.Entry<String, Map<String, String>> list : byList.entrySet()) {
            int dash = list.getKey().indexOf('-');
            String provider = list.getKey().substring(0, dash);
            String devicePrefix = list.getKey().substring(dash + 1);
            if (run.provider().equals(provider) && run.device().startsWith(devicePrefix)) {
                String reason = list.getValue().get(c.id());
                if (reason != null) {
                    return reason;
                }
            }
        }
        return null;
    }

    /** How many of the run's failures are listed findings. */
    public long count(RunReport run) {
        return run.cases().stream().filter(c -> reason(run, c) != null).count();
    }
}
