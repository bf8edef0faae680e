package dev.verbs4j.tools.perf;

import dev.verbs4j.Device;
import dev.verbs4j.tools.DeviceChoice;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code verbs4j perf [--repeat N]} with no test: the soft provider's performance targets,
 * each test run right after a raw UDP baseline of its own in every repetition, in both
 * progress models, both ends in this process. A figure is the median over the repetitions
 * (at least five for one worth quoting), printed with its range. A ratio pairs runs of one
 * repetition (a test and the baseline run right before it; engine threads and caller
 * progress) and is the median of those pairs' ratios, printed with their range: the machine
 * here is faster or slower by a third for a minute at a time, and a pair sees the same
 * minute on both sides where medians taken apart do not. The
 * WRITE, SEND and READ latencies and the WRITE and SEND bandwidths also run between two
 * processes (a {@code perf --server} child), in both progress models:
 * <ul>
 * <li>engine threads (the default) against caller progress: every latency at most 1.2x,
 * every bandwidth at least 90 %;
 * <li>every 8-byte latency at most 2x the UDP ping-pong: half a round trip for the
 * ping-pongs (WRITE, SEND), a whole one for the request-response tests (READ, the atomics).
 * The ping-pongs run twice, each against the UDP ping-pong of the same structure: with a
 * thread for each side (as ib_write_lat's and ib_send_lat's two processes, and as the
 * two-process rows), and with one thread playing both sides in turn;
 * <li>WRITE, READ and SEND of 64 KiB at least 90 % of the UDP stream of the same datagram
 * sizes and the same thread shape with a CRC32 of each datagram at each end (the ICRC's work,
 * which every RoCE end does), WRITE over 1 to 64 queue pairs too. Caller progress in one
 * process is one thread doing both ends' work in turn, as the stream whose thread sends a
 * burst and then receives it; engine threads, and any two processes, have a thread per side,
 * as the stream with one thread sending while another receives.
 * </ul>
 * It prints a Markdown table (docs/performance.md's), after the stamp line that
 * scripts/docs-check.py reads (the commit and date it was made at), and how many targets were met. It measures and
 * reports; it does not fail. Below the table, outside the targets, it sets the CRC streams
 * against the same streams without the CRC, run at the start of each repetition: what the
 * CRC itself costs on this loopback.
 */
final class PerfTargets {
    private static final List<String> LATENCY = List.of("write_lat", "send_lat", "read_lat", "atomic_lat", "atomic_write_lat");
    private static final List<String> BANDWIDTH = List.of("write_bw", "read_bw", "send_bw");
    private static final int[] QUEUE_PAIRS = {1, 4, 16, 64};
    private static final int LATENCY_SIZE = 8;
    private static final int BANDWIDTH_SIZE = 65536;
    private static final List<String> TWO_PROCESS_LATENCY = List.of("write_lat", "send_lat", "read_lat");
    private static final List<String> TWO_PROCESS_BANDWIDTH = List.of("write_bw", "send_bw");
    /** The side channel of the server child: apart from perf's default, so a server someone runs is left alone. */
    private static final int SERVER_PORT = 18519;
    private static final List<String> PING_PONG = List.of("write_lat", "send_lat");
    /** The key suffix of a ping-pong with a thread for each side (ib_write_lat's structure) rather than one for both. */
    private static final String PER_SIDE = "/per-side";
    /** The key suffix of a UDP stream that puts a CRC32 in each datagram and checks it. */
    private static final String CRC = "/crc";
    /** The key suffix of a run's UDP baseline, the one taken right before it. */
    private static final String BASELINE = "@udp";
    /** The key suffix of a test between two processes. */
    private static final String TWO_PROCESSES = "/2p";
    /** Every UDP ping-pong a test was set against (with {@link #PER_SIDE}: a thread per side). */
    private static final String UDP_LAT = "udp_lat";
    /** Every UDP stream with a CRC32 at each end a bandwidth was set against (with {@link #PER_SIDE}: a thread per side). */
    private static final String UDP_BW_CRC = "udp_bw/crc/baseline";
    private static final String CALLER = "caller";
    private static final String THREAD = "thread";

    /** How long each look at the cores' placement takes. */
    private static final long PLACEMENT_NS = 100_000_000L;
    /** How many times a bandwidth and its baseline are measured while the placement moves between them. */
    private static final int PAIR_ATTEMPTS = 3;

    /** Every run, by key ({@code udp_lat}, {@code write_lat/caller}, {@code write_bw/thread/q16} ...). */
    private final Map<String, List<Result>> runs = new LinkedHashMap<>();
    /** The cores' round trip in ns after each bandwidth's runs, by the bandwidth's key. */
    private final Map<String, List<Double>> placements = new LinkedHashMap<>();
    private int pairs;
    private int farPairs;
    private int movedPairs;
    private final PerfOptions o;
    private final PrintStream out;
    private int met;
    private int targets;

    private PerfTargets(PerfOptions o, PrintStream out) {
        this.o = o;
        this.out = out;
    }

    static int run(PerfOptions o, PrintStream out) {
        PerfTargets t = new PerfTargets(o, out);
        out.println("verbs4j perf: the soft provider's targets, " + o.repeat + " repetition(s), loopback, MTU " + o.mtu.bytes()
                + (o.repeat < 5 ? " (fewer than 5: the medians are not to be quoted)" : ""));
        for (int i = 1; i <= o.repeat; i++) {
            long start = System.nanoTime();
            t.repetition();
            out.println(String.format(Locale.ROOT, " repetition %d of %d: %.1f s; %s", i, o.repeat, (System.nanoTime() - start) / 1e9,
                    t.bandwidthsOf(i - 1)));
        }
        t.print();
        return 0;
    }

    /**
     * One repetition: the four streams the comparison below the table uses, then every test
     * in caller progress, then with engine threads, in one process and then between two, then
     * WRITE over several queue pairs; each test right after its UDP baseline.
     */
    private void repetition() {
        try (UdpBaseline udp = UdpBaseline.onLoopback()) {
            measure("udp_bw", () -> stream(udp, false, false));
            measure("udp_bw" + PER_SIDE, () -> stream(udp, true, false));
            measure("udp_bw" + CRC, () -> stream(udp, false, true));
            measure("udp_bw" + CRC + PER_SIDE, () -> stream(udp, true, true));
            for (String progress : List.of(CALLER, THREAD)) {
                // A soft device takes its progress model when it opens: the pair below opens its two.
                System.setProperty("verbs4j.soft.progress", progress);
                try (Loopback lb = new Loopback(o.provider, 1 << 17, o.depth, o.mtu, true)) {
                    for (String test : LATENCY) {
                        measureAfter(test + "/" + progress, UDP_LAT, () -> pingPong(udp, false),
                                () -> VerbsTests.latency(test, lb, LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, 1, 0));
                        if (PING_PONG.contains(test)) {
                            measureAfter(test + "/" + progress + PER_SIDE, UDP_LAT + PER_SIDE, () -> pingPong(udp, true),
                                    () -> VerbsTests.latency(test, lb, LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, 2, 0));
                        }
                    }
                    boolean perSide = THREAD.equals(progress);
                    for (String test : BANDWIDTH) {
                        measureBandwidthAfter(test + "/" + progress, crcStreamKind(perSide), () -> crcStream(udp, perSide), () -> bandwidth(test, lb, 1));
                    }
                }
            }
            for (String progress : List.of(CALLER, THREAD)) {
                twoProcesses(progress, udp);
            }
            // The two-process runs leave perf's own progress model set: these rows are engine threads'.
            System.setProperty("verbs4j.soft.progress", THREAD);
            for (int qps : QUEUE_PAIRS) {
                // A pair's queue pairs are made once: each count gets pairs of its own.
                try (Loopback lb = new Loopback(o.provider, 1 << 17, o.depth, o.mtu, true)) {
                    measureBandwidthAfter("write_bw/" + THREAD + "/q" + qps, crcStreamKind(true), () -> crcStream(udp, true),
                            () -> bandwidth("write_bw", lb, qps));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            System.setProperty("verbs4j.soft.progress", o.progress);
        }
    }

    /**
     * The same tests between two processes, as perftest runs: a {@code perf --server} child
     * on soft0, started with this JVM's options and the same progress model, and this
     * process as its client on soft1.
     */
    private void twoProcesses(String progress, UdpBaseline udp) {
        System.setProperty("verbs4j.soft.progress", progress);
        ServerProcess server = ServerProcess.start(progress, SERVER_PORT);
        try {
            Device device = DeviceChoice.choose(o.provider, "soft1", null);
            try (PerfClient client = PerfClient.connect(device, "127.0.0.1", SERVER_PORT, 1 << 17, o.depth, o.mtu, 1, false)) {
                for (String test : TWO_PROCESS_LATENCY) {
                    // A ping-pong between two processes has a thread per side; READ is one thread's round trip.
                    boolean perSide = PING_PONG.contains(test);
                    measureAfter(test + "/" + progress + TWO_PROCESSES, perSide ? UDP_LAT + PER_SIDE : UDP_LAT,
                            () -> pingPong(udp, perSide),
                            () -> VerbsTests.latency(test, client, LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, 1, 0));
                }
                for (String test : TWO_PROCESS_BANDWIDTH) {
                    // Two processes have a thread per side whatever their progress model.
                    measureBandwidthAfter(test + "/" + progress + TWO_PROCESSES, crcStreamKind(true), () -> crcStream(udp, true),
                            () -> bandwidth(test, client, 1));
                }
            }
        } finally {
            server.awaitExit();
            System.setProperty("verbs4j.soft.progress", o.progress);
        }
    }

    private Result pingPong(UdpBaseline udp, boolean threadPerSide) throws IOException {
        return udp.latency(LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, threadPerSide);
    }

    private Result stream(UdpBaseline udp, boolean threadPerSide, boolean crc) throws IOException {
        return udp.bandwidth(BANDWIDTH_SIZE, o.mtu.bytes(), o.iterationsOr(5_000), o.warmUp, threadPerSide, UdpBaseline.batched(), crc);
    }

    /** The stream with a CRC32 of each datagram at each end, with a thread per side or one thread for both. */
    private Result crcStream(UdpBaseline udp, boolean perSide) throws IOException {
        return stream(udp, perSide, true);
    }

    private static String crcStreamKind(boolean perSide) {
        return perSide ? UDP_BW_CRC + PER_SIDE : UDP_BW_CRC;
    }

    private Result bandwidth(String test, PerfPair lb, int qps) {
        return VerbsTests.bandwidth(test, lb, BANDWIDTH_SIZE, o.iterationsOr(5_000), o.warmUp,
                new VerbsTests.Pipeline(o.depth, qps, o.cqMod, o.postList), 0);
    }

    /** One measurement of a repetition. */
    @FunctionalInterface
    private interface Measurement {
        Result run() throws IOException;
    }

    /**
     * Runs {@code baseline} and right after it {@code test}, and keeps them as a pair: the
     * test under {@code key}, its baseline under {@code key} + {@link #BASELINE} (what the
     * test's ratio is taken against) and under {@code kind} (all baselines of one kind, for
     * the summary).
     */
    private void measureAfter(String key, String kind, Measurement baseline, Measurement test) {
        keep(kind, measure(key + BASELINE, baseline));
        measure(key, test);
    }

    /**
     * {@link #measureAfter} for a bandwidth, with a look at the cores' placement
     * ({@link CorePlacement}) before the baseline and after the test: when it moved in
     * between, the two measured different machines, and both are measured again (at most
     * {@value #PAIR_ATTEMPTS} times in all; the last pair is kept whatever the placement).
     */
    private void measureBandwidthAfter(String key, String kind, Measurement baseline, Measurement test) {
        double before = CorePlacement.roundTripNs(PLACEMENT_NS, System::nanoTime);
        for (int attempt = 1; ; attempt++) {
            Result b = run(key + BASELINE, baseline);
            Result t = run(key, test);
            double after = CorePlacement.roundTripNs(PLACEMENT_NS, System::nanoTime);
            if (CorePlacement.same(before, after) || attempt == PAIR_ATTEMPTS) {
                keep(kind, b);
                keep(key + BASELINE, b);
                keep(key, t);
                placements.computeIfAbsent(key, k -> new ArrayList<>()).add(after);
                pairs++;
                farPairs += after > CorePlacement.FAR_NS ? 1 : 0;
                return;
            }
            movedPairs++;
            before = after;
        }
    }

    /** Runs one measurement, keeps it under {@code key} and returns it. */
    private Result measure(String key, Measurement measurement) {
        Result r = run(key, measurement);
        keep(key, r);
        return r;
    }

    /** Runs one measurement; a failure names it. */
    private static Result run(String key, Measurement measurement) {
        try {
            return measurement.run();
        } catch (IOException e) {
            throw new UncheckedIOException(key + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IllegalStateException(key + ": " + e.getMessage(), e);
        }
    }

    private void keep(String key, Result r) {
        runs.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }

    /**
     * Repetition {@code index}'s bandwidths, each with the CRC stream run right before it: the
     * medians hide which repetition was slow, and whether its baseline was too.
     */
    private String bandwidthsOf(int index) {
        StringBuilder line = new StringBuilder("Gb/s, each / its CRC stream (cores' round trip after it, ns):");
        for (Map.Entry<String, List<Double>> e : placements.entrySet()) {
            String key = e.getKey();
            line.append(String.format(Locale.ROOT, " %s %.1f/%.1f (%.0f)", key, runs.get(key).get(index).avgGbps(),
                    runs.get(key + BASELINE).get(index).avgGbps(), e.getValue().get(index)));
        }
        return line.toString();
    }

    private Repeated median(String key) {
        return Repeated.of(runs.get(key));
    }

    private void print() {
        out.println();
        out.println(DocsStamp.line("the targets table, by ./verbs4j perf --repeat " + o.repeat,
                "java-provider/src/main tools/src/main/java/dev/verbs4j/tools/perf"));
        out.println("| test | caller progress | engine threads (default) | threads vs caller | UDP baseline | vs UDP baseline (threads, caller) |");
        out.println("|---|---|---|---|---|---|");
        for (String test : LATENCY) {
            if (PING_PONG.contains(test)) {
                latencyRow(test + " 8 B (RTT/2), a thread per side", test, PER_SIDE, 1, "");
                latencyRow(test + " 8 B (RTT/2), one thread for both", test, "", 1, "");
            } else {
                latencyRow(test + " 8 B (RTT)", test, "", 2, " (2 x udp_lat)");
            }
        }
        for (String test : BANDWIDTH) {
            bandwidthRow(test + " 64 KiB", test, "");
        }
        for (String test : TWO_PROCESS_LATENCY) {
            boolean pingPong = PING_PONG.contains(test);
            latencyRow(test + " 8 B, two processes", test, TWO_PROCESSES, pingPong ? 1 : 2, pingPong ? "" : " (2 x udp_lat)");
        }
        for (String test : TWO_PROCESS_BANDWIDTH) {
            bandwidthRow(test + " 64 KiB, two processes", test, TWO_PROCESSES);
        }
        for (int qps : QUEUE_PAIRS) {
            String key = "write_bw/" + THREAD + "/q" + qps;
            row("write_bw 64 KiB, " + qps + " QP" + (qps > 1 ? "s" : ""), "", median(key).describe("Gb/s"), "",
                    median(key + BASELINE).describe("Gb/s") + " per side", judge(ratios(key, key + BASELINE, 1), 0.9, false, "%"));
        }
        out.println();
        out.println(String.format(Locale.ROOT, "UDP baselines, each run right before the test it is set against: ping-pong %s with"
                        + " one thread, %s with a thread per side; the stream with a CRC32 at each end %s with one thread, %s with a"
                        + " thread per side",
                median(UDP_LAT).describe("us"), median(UDP_LAT + PER_SIDE).describe("us"), median(UDP_BW_CRC).describe("Gb/s"),
                median(UDP_BW_CRC + PER_SIDE).describe("Gb/s")));
        printCrcCost();
        out.println(String.format(Locale.ROOT, "The cores' placement (not a target): after %d of %d bandwidths and their baselines the cores'"
                + " round trip was over %.0f ns (far apart); %d pairs were measured again because it moved between the baseline and"
                + " the test", farPairs, pairs, CorePlacement.FAR_NS, movedPairs));
        out.println("targets met: " + met + " of " + targets);
    }

    /** The streams with a CRC32 at each end against the bare ones, both run at the start of each repetition; not targets. */
    private void printCrcCost() {
        out.println(String.format(Locale.ROOT, "The CRC32 at each end (not a target): the bare UDP stream moved %s with one thread and"
                        + " %s with a thread per side, the same streams with the CRC %.0f %% and %.0f %% of that (medians of each"
                        + " repetition's ratio, both run at its start)",
                median("udp_bw").describe("Gb/s"), median("udp_bw" + PER_SIDE).describe("Gb/s"),
                100 * ratios("udp_bw" + CRC, "udp_bw", 1).median(), 100 * ratios("udp_bw" + CRC + PER_SIDE, "udp_bw" + PER_SIDE, 1).median()));
    }

    /**
     * A latency row: {@code test} in both progress models (its runs kept under
     * {@code test/progress + suffix}), against each other and each against the UDP ping-pong
     * run right before it, {@code udpFactor} of them for a whole round trip.
     */
    private void latencyRow(String name, String test, String suffix, int udpFactor, String udpNote) {
        String caller = test + "/" + CALLER + suffix;
        String thread = test + "/" + THREAD + suffix;
        row(name, median(caller).describe("us"), median(thread).describe("us"), judge(ratios(thread, caller, 1), 1.2, true, "x"),
                String.format(Locale.ROOT, "%.2f us%s", udpFactor * pooledBaselines(caller, thread).median(), udpNote),
                judge(ratios(thread, thread + BASELINE, udpFactor), 2.0, true, "x") + ", "
                        + judge(ratios(caller, caller + BASELINE, udpFactor), 2.0, true, "x"));
    }

    /**
     * A bandwidth row: {@code test} in both progress models (runs under
     * {@code test/progress + suffix}), against each other and each against the CRC stream of
     * its thread shape run right before it (one baseline shown where both models have a
     * thread per side, else the threads' and the caller's).
     */
    private void bandwidthRow(String name, String test, String suffix) {
        String caller = test + "/" + CALLER + suffix;
        String thread = test + "/" + THREAD + suffix;
        String baseline = suffix.equals(TWO_PROCESSES) ? pooledBaselines(caller, thread).describe("Gb/s") + " per side"
                : median(thread + BASELINE).describe("Gb/s") + " per side, " + median(caller + BASELINE).describe("Gb/s") + " one thread";
        row(name, median(caller).describe("Gb/s"), median(thread).describe("Gb/s"), judge(ratios(thread, caller, 1), 0.9, false, "%"),
                baseline,
                judge(ratios(thread, thread + BASELINE, 1), 0.9, false, "%") + ", "
                        + judge(ratios(caller, caller + BASELINE, 1), 0.9, false, "%"));
    }

    /** The paired ratios of the runs under {@code key} against those under {@code against}, the latter times {@code factor}. */
    private Repeated ratios(String key, String against, double factor) {
        return Repeated.ratios(runs.get(key), runs.get(against), factor);
    }

    /** The baselines of a row's two progress models together. */
    private Repeated pooledBaselines(String caller, String thread) {
        List<Result> both = new ArrayList<>(runs.get(caller + BASELINE));
        both.addAll(runs.get(thread + BASELINE));
        return Repeated.of(both);
    }

    private void row(String... cells) {
        out.println("| " + String.join(" | ", cells) + " |");
    }

    /**
     * A ratio (the median of paired ratios, with their range) and whether it meets its
     * bound: at most {@code bound} when {@code atMost}, else at least.
     */
    private String judge(Repeated ratio, double bound, boolean atMost, String unit) {
        double median = ratio.median();
        boolean ok = atMost ? median <= bound : median >= bound;
        targets++;
        if (ok) {
            met++;
        }
        // Both forms show the ratio in hundredths (90 %, 2.00x): a miss that rounds to its
        // bound shows one more digit (89.8 %, not 90 %).
        boolean finer = !ok && Math.round(median * 100) == Math.round(bound * 100);
        String target = unit.equals("%") ? String.format(Locale.ROOT, ">= %.0f %%", bound * 100)
                : String.format(Locale.ROOT, "<= %.1fx", bound);
        return format(median, unit, finer) + " (" + format(ratio.min(), unit, false) + "-" + format(ratio.max(), unit, false)
                + (ok ? ", met, " : ", **missed**, ") + target + ")";
    }

    private static String format(double ratio, String unit, boolean finer) {
        if (unit.equals("%")) {
            return String.format(Locale.ROOT, finer ? "%.1f %%" : "%.0f %%", ratio * 100);
        }
        return String.format(Locale.ROOT, finer ? "%.3fx" : "%.2fx", ratio);
    }
}
