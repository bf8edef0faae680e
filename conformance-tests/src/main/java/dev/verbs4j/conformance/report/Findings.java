package dev.verbs4j.conformance.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cases where a provider's device answers differently from the IBTA specification, as listed
 * in {@code conformance-tests/findings/<provider>-<device prefix>.tsv}. A list applies to a
 * side of a run (the local side posts the request under test, the remote side is its target)
 * when that side's provider is {@code <provider>} and its device starts with the prefix. One
 * line per case, tab-separated, in one of three forms:
 * <pre>
 * case-id  reason                       applies where both sides of the run are that device
 * case-id  local|remote|either  reason  applies where that side is the device: the one posting
 *                                       the request, the one it is aimed at, or either (the
 *                                       wire, or a copy both sides make)
 * case-id  local|remote|either|both  KERNELS  reason
 *                                       as above, only on the kernel releases KERNELS names
 * </pre>
 * KERNELS is a range of releases, {@code FIRST..LAST} with either end left open
 * ({@code 6.1..6.14}, {@code ..6.12}, {@code 6.15..}), compared with the run's kernel
 * ({@link RunReport#kernel()}) in as many version parts as the bound has: {@code ..6.12}
 * includes 6.12.117. A line with a range never applies to a run that recorded no kernel.
 * A failing case listed for its run is a finding, not a failure; the JSON report keeps the raw
 * outcome. A finding named for one side never excuses the case in a run where the device is
 * only on the other. scripts/vm-evaluate.py reads the same files with the same rule.
 * It has no libibverbs counterpart: it is part of the suite's report.
 */
public final class Findings {
    /** The lists shipped with the suite, by file name without {@code .tsv}. */
    private static final List<String> LISTS = List.of("ibverbs-rxe", "ibverbs-siw");
    private static final String RESOURCE_DIR = "/dev/verbs4j/conformance/findings/";

    /**
     * Which side of a run must be the listed device for a finding to apply.
     * It has no libibverbs counterpart: it belongs to the suite's findings lists.
     */
    public enum Side {
        /** Both sides: a two-column line. */
        BOTH,
        /** The side that posts the request under test. */
        LOCAL,
        /** The side the request is aimed at: the responder. */
        REMOTE,
        /** Either side: the behaviour shows whichever side the device is on. */
        EITHER;

        boolean applies(boolean localMatches, boolean remoteMatches) {
            return switch (this) {
                case BOTH -> localMatches && remoteMatches;
                case LOCAL -> localMatches;
                case REMOTE -> remoteMatches;
                case EITHER -> localMatches || remoteMatches;
            };
        }

        /** The side a line's middle column names. @throws IllegalArgumentException for any other word */
        static Side named(String word) {
            return switch (word) {
                case "local" -> LOCAL;
                case "remote" -> REMOTE;
                case "either" -> EITHER;
                default -> throw new IllegalArgumentException("unknown side '" + word + "' (local, remote or either)");
            };
        }
    }

    private record Listed(Side side, KernelRange kernels, String reason) {
    }

    /** A list's device, and its findings by case id. */
    private record DeviceList(String provider, String devicePrefix, Map<String, List<Listed>> byCase) {
        boolean isOn(String runProvider, String runDevice) {
            return runProvider.equals(provider) && runDevice.startsWith(devicePrefix);
        }
    }

    private final List<DeviceList> lists;

    private Findings(List<DeviceList> lists) {
        this.lists = lists;
    }

    /**
     * No case is a finding.
     *
     * @return the empty findings
     */
    public static Findings none() {
        return new Findings(List.of());
    }

    /**
     * The lists shipped with the suite.
     *
     * @return the findings read from the suite's resources
     */
    public static Findings bundled() {
        Map<String, String> texts = new HashMap<>();
        for (String name : LISTS) {
            try (InputStream in = Findings.class.getResourceAsStream(RESOURCE_DIR + name + ".tsv")) {
                if (in == null) {
                    throw new IllegalStateException("findings list " + name + ".tsv is not on the class path");
                }
                texts.put(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return of(texts);
    }

    /**
     * The given lists, by name ({@code <provider>-<device prefix>}), each as the text of a TSV file.
     *
     * @throws IllegalArgumentException when a line names an unknown side or kernel range, or has too many columns
     * @param listTexts list name to TSV text
     * @return the findings
     */
    public static Findings of(Map<String, String> listTexts) {
        List<DeviceList> lists = new ArrayList<>();
        listTexts.forEach((name, text) -> {
            int dash = name.indexOf('-');
            lists.add(new DeviceList(name.substring(0, dash), name.substring(dash + 1), parse(name, text)));
        });
        return new Findings(lists);
    }

    private static Map<String, List<Listed>> parse(String name, String text) {
        Map<String, List<Listed>> byCase = new HashMap<>();
        try (BufferedReader lines = new BufferedReader(new StringReader(text))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String[] fields = line.split("\t", -1);
                if (line.isBlank() || line.startsWith("#") || fields.length < 2) {
                    continue;
                }
                Listed listed = switch (fields.length) {
                    case 2 -> new Listed(Side.BOTH, KernelRange.ANY, fields[1].trim());
                    case 3 -> new Listed(Side.named(fields[1].trim()), KernelRange.ANY, fields[2].trim());
                    case 4 -> new Listed(fields[1].trim().equals("both") ? Side.BOTH : Side.named(fields[1].trim()),
                            KernelRange.parse(fields[2].trim()), fields[3].trim());
                    default -> throw new IllegalArgumentException(name + ".tsv: more than four columns: " + line);
                };
                byCase.computeIfAbsent(fields[0].trim(), id -> new ArrayList<>()).add(listed);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return byCase;
    }

    /**
     * What the device does instead, if {@code c} failed in {@code run} and is listed for a side
     * of the run that the list's device is on; else null.
     *
     * @param run the run
     * @param c one of its cases
     * @return the listed reason, or null
     */
    public String reason(RunReport run, CaseResult c) {
        if (c.outcome() != Outcome.FAIL) {
            return null;
        }
        for (DeviceList list : lists) {
            boolean local = list.isOn(run.provider(), run.device());
            boolean remote = list.isOn(run.peerProvider(), run.peerDevice());
            for (Listed listed : list.byCase().getOrDefault(c.id(), List.of())) {
                if (listed.side().applies(local, remote) && listed.kernels().includes(run.kernel())) {
                    return listed.reason();
                }
            }
        }
        return null;
    }

    /**
     * How many of the run's failures are listed findings.
     *
     * @param run the run
     * @return the count
     */
    public long count(RunReport run) {
        return run.cases().stream().filter(c -> reason(run, c) != null).count();
    }
}
