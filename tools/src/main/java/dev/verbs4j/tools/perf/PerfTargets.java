package dev.verbs4j.tools.perf;

import dev.verbs4j.Device;
import dev.verbs4j.tools.DeviceChoice;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code verbs4j perf [--repeat N]} with no test: the soft provider's performance targets,
 * each test run back to back with its raw UDP baseline in every repetition, in both progress
 * models, both ends in this process. A ratio is taken of the medians over the repetitions
 * (at least five for a figure worth quoting) and printed with the spread of each side. The
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
 * <li>WRITE, READ and SEND of 64 KiB at least 90 % of the UDP bandwidth with the same
 * datagram sizes, WRITE over 1 to 64 queue pairs too, each against the better of two UDP
 * streams: one with a thread per side and one whose thread sends and receives in turn
 * (which is better moves with the machine and with how the streams batch).
 * </ul>
 * It prints a Markdown table (the README's) and how many targets were met. It measures and
 * reports; it does not fail. Below the table, outside the targets, it sets the bandwidths
 * against the better of the same two streams with a CRC32 of each datagram at each end (the
 * ICRC's work, which the bare streams do not do): how near the engine comes to what a RoCE
 * end can at best do on this loopback.
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
    private static final String CALLER = "caller";
    private static final String THREAD = "thread";

    /** Every run, by key ({@code udp_lat}, {@code write_lat/caller}, {@code write_bw/thread/q16} ...). */
    private final Map<String, List<Result>> runs = new LinkedHashMap<>();
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
            out.println(String.format(Locale.ROOT, " repetition %d of %d: %.1f s", i, o.repeat, (System.nanoTime() - start) / 1e9));
        }
        t.print();
        return 0;
    }

    /** One repetition: the baselines, then every test in caller progress, then with engine threads. */
    private void repetition() {
        try (UdpBaseline udp = new UdpBaseline(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 47981),
                new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 47982))) {
            measure("udp_lat", () -> udp.latency(LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, false));
            measure("udp_lat" + PER_SIDE, () -> udp.latency(LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, true));
            measure("udp_bw", () -> udp.bandwidth(BANDWIDTH_SIZE, o.mtu.bytes(), o.iterationsOr(5_000), o.warmUp, false, UdpBaseline.batched()));
            measure("udp_bw" + PER_SIDE, () -> udp.bandwidth(BANDWIDTH_SIZE, o.mtu.bytes(), o.iterationsOr(5_000), o.warmUp, true,
                    UdpBaseline.batched()));
            measure("udp_bw" + CRC, () -> udp.bandwidth(BANDWIDTH_SIZE, o.mtu.bytes(), o.iterationsOr(5_000), o.warmUp, false,
                    UdpBaseline.batched(), true));
            measure("udp_bw" + CRC + PER_SIDE, () -> udp.bandwidth(BANDWIDTH_SIZE, o.mtu.bytes(), o.iterationsOr(5_000), o.warmUp, true,
                    UdpBaseline.batched(), true));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String progress : List.of(CALLER, THREAD)) {
            // A soft device takes its progress model when it opens: the pair below opens its two.
            System.setProperty("verbs4j.soft.progress", progress);
            try (Loopback lb = new Loopback(o.provider, 1 << 17, o.depth, o.mtu, true)) {
                for (String test : LATENCY) {
                    measure(test + "/" + progress, () -> VerbsTests.latency(test, lb, LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, 1, 0));
                    if (PING_PONG.contains(test)) {
                        measure(test + "/" + progress + PER_SIDE,
                                () -> VerbsTests.latency(test, lb, LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, 2, 0));
                    }
                }
                for (String test : BANDWIDTH) {
                    measure(test + "/" + progress, () -> bandwidth(test, lb, 1));
                }
            }
        }
        for (String progress : List.of(CALLER, THREAD)) {
            twoProcesses(progress);
        }
        // The two-process runs leave perf's own progress model set: these rows are engine threads'.
        System.setProperty("verbs4j.soft.progress", THREAD);
        for (int qps : QUEUE_PAIRS) {
            // A pair's queue pairs are made once: each count gets pairs of its own.
            try (Loopback lb = new Loopback(o.provider, 1 << 17, o.depth, o.mtu, true)) {
                measure("write_bw/" + THREAD + "/q" + qps, () -> bandwidth("write_bw", lb, qps));
            }
        }
        System.setProperty("verbs4j.soft.progress", o.progress);
    }

    /**
     * The same tests between two processes, as perftest runs: a {@code perf --server} child
     * on soft0, started with this JVM's options and the same progress model, and this
     * process as its client on soft1.
     */
    private void twoProcesses(String progress) {
        System.setProperty("verbs4j.soft.progress", progress);
        ServerProcess server = ServerProcess.start(progress, SERVER_PORT);
        try {
            Device device = DeviceChoice.choose(o.provider, "soft1", null);
            try (PerfClient client = PerfClient.connect(device, "127.0.0.1", SERVER_PORT, 1 << 17, o.depth, o.mtu, 1, false)) {
                for (String test : TWO_PROCESS_LATENCY) {
                    measure(test + "/" + progress + "/2p", () -> VerbsTests.latency(test, client, LATENCY_SIZE, o.iterationsOr(10_000), o.warmUp, 1, 0));
                }
                for (String test : TWO_PROCESS_BANDWIDTH) {
                    measure(test + "/" + progress + "/2p", () -> bandwidth(test, client, 1));
                }
            }
        } finally {
            server.awaitExit();
            System.setProperty("verbs4j.soft.progress", o.progress);
        }
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

    /** Runs one measurement and keeps it under {@code key}; a failure names the measurement. */
    private void measure(String key, Measurement measurement) {
        Result r;
        try {
            r = measurement.run();
        } catch (IOException e) {
            throw new UncheckedIOException(key + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new IllegalStateException(key + ": " + e.getMessage(), e);
        }
        runs.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }

    private Repeated median(String key) {
        return Repeated.of(runs.get(key));
    }

    private void print() {
        Repeated udpLat = median("udp_lat");
        Repeated udpBw = median("udp_bw");
        out.println();
        out.println("| test | caller progress | engine threads (default) | threads vs caller | raw UDP | vs raw UDP (threads, caller) |");
        out.println("|---|---|---|---|---|---|");
        Repeated udpLatPerSide = median("udp_lat" + PER_SIDE);
        for (String test : LATENCY) {
            boolean pingPong = PING_PONG.contains(test);
            if (pingPong) {
                latencyRow(test + " 8 B (RTT/2), a thread per side", test, PER_SIDE, udpLatPerSide.median(), "");
                latencyRow(test + " 8 B (RTT/2), one thread for both", test, "", udpLat.median(), "");
            } else {
                latencyRow(test + " 8 B (RTT)", test, "", 2 * udpLat.median(), " (2 x udp_lat)");
            }
        }
        Repeated udpBwPerSide = median("udp_bw" + PER_SIDE);
        // Every bandwidth is set against the better of the two streams, whichever shape it has.
        Repeated bestBw = Repeated.higher(udpBw, udpBwPerSide);
        String bestBwCell = bestBw.describe("Gb/s") + (bestBw == udpBw ? " one thread" : " a thread per side");
        for (String test : BANDWIDTH) {
            bandwidthRow(test + " 64 KiB", test, "", bestBw, bestBwCell);
        }
        for (String test : TWO_PROCESS_LATENCY) {
            boolean pingPong = PING_PONG.contains(test);
            latencyRow(test + " 8 B, two processes", test, "/2p", pingPong ? udpLatPerSide.median() : 2 * udpLat.median(), "");
        }
        for (String test : TWO_PROCESS_BANDWIDTH) {
            bandwidthRow(test + " 64 KiB, two processes", test, "/2p", bestBw, bestBwCell);
        }
        for (int qps : QUEUE_PAIRS) {
            Repeated thread = median("write_bw/" + THREAD + "/q" + qps);
            row("write_bw 64 KiB, " + qps + " QP" + (qps > 1 ? "s" : ""), "", thread.describe("Gb/s"), "",
                    bestBwCell, judge(thread.median() / bestBw.median(), 0.9, false, "%"));
        }
        out.println();
        out.println(String.format(Locale.ROOT, "raw UDP: ping-pong %s with one thread, %s with a thread per side;"
                        + " bandwidth %s with one thread, %s with a thread per side",
                udpLat.describe("us"), udpLatPerSide.describe("us"), udpBw.describe("Gb/s"), udpBwPerSide.describe("Gb/s")));
        printAgainstCrcStream();
        out.println("targets met: " + met + " of " + targets);
    }

    /** The bandwidths (engine threads, caller progress) against the better UDP stream with a CRC32 at each end; not targets. */
    private void printAgainstCrcStream() {
        Repeated one = median("udp_bw" + CRC);
        Repeated perSide = median("udp_bw" + CRC + PER_SIDE);
        Repeated best = Repeated.higher(one, perSide);
        StringBuilder ratios = new StringBuilder();
        for (String test : BANDWIDTH) {
            ratios.append(againstCrc(test + " ", test, "", best));
        }
        for (String test : TWO_PROCESS_BANDWIDTH) {
            ratios.append(againstCrc(test + " two processes ", test, "/2p", best));
        }
        out.println(String.format(Locale.ROOT, "UDP stream with a CRC32 of each datagram at each end (not a target): %s with one"
                        + " thread, %s with a thread per side, %.0f %% and %.0f %% of the bare stream of the same shape (medians of"
                        + " each repetition's ratio); 64 KiB against the better (threads, caller): %s",
                one.describe("Gb/s"), perSide.describe("Gb/s"), 100 * pairedRatio("udp_bw" + CRC, "udp_bw"),
                100 * pairedRatio("udp_bw" + CRC + PER_SIDE, "udp_bw" + PER_SIDE), ratios.substring(0, ratios.length() - 2)));
    }

    /** The median over the repetitions of each one's bandwidth under {@code key} against its bandwidth under {@code base}. */
    private double pairedRatio(String key, String base) {
        List<Result> of = runs.get(key);
        List<Result> against = runs.get(base);
        double[] ratios = new double[of.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = of.get(i).avgGbps() / against.get(i).avgGbps();
        }
        return Repeated.of(ratios).median();
    }

    private String againstCrc(String name, String test, String suffix, Repeated stream) {
        return String.format(Locale.ROOT, "%s%.0f %%, %.0f %%; ", name, 100 * median(test + "/" + THREAD + suffix).median() / stream.median(),
                100 * median(test + "/" + CALLER + suffix).median() / stream.median());
    }

    /**
     * A latency row: {@code test} in both progress models (its runs kept under
     * {@code test/progress + suffix}), against each other and against {@code udp} (µs).
     */
    private void latencyRow(String name, String test, String suffix, double udp, String udpNote) {
        Repeated caller = median(test + "/" + CALLER + suffix);
        Repeated thread = median(test + "/" + THREAD + suffix);
        row(name, caller.describe("us"), thread.describe("us"), judge(thread.median() / caller.median(), 1.2, true, "x"),
                String.format(Locale.ROOT, "%.2f us%s", udp, udpNote),
                judge(thread.median() / udp, 2.0, true, "x") + ", " + judge(caller.median() / udp, 2.0, true, "x"));
    }

    /**
     * A bandwidth row: {@code test} in both progress models (runs under
     * {@code test/progress + suffix}), against each other and against {@code udp}, the better
     * UDP stream (described by {@code udpCell}).
     */
    private void bandwidthRow(String name, String test, String suffix, Repeated udp, String udpCell) {
        Repeated caller = median(test + "/" + CALLER + suffix);
        Repeated thread = median(test + "/" + THREAD + suffix);
        row(name, caller.describe("Gb/s"), thread.describe("Gb/s"), judge(thread.median() / caller.median(), 0.9, false, "%"),
                udpCell, judge(thread.median() / udp.median(), 0.9, false, "%") + ", "
                        + judge(caller.median() / udp.median(), 0.9, false, "%"));
    }

    private void row(String... cells) {
        out.println("| " + String.join(" | ", cells) + " |");
    }

    /** A ratio and whether it meets its bound: at most {@code bound} when {@code atMost}, else at least. */
    private String judge(double ratio, double bound, boolean atMost, String unit) {
        boolean ok = atMost ? ratio <= bound : ratio >= bound;
        targets++;
        if (ok) {
            met++;
        }
        String value = unit.equals("%") ? String.format(Locale.ROOT, "%.0f %%", ratio * 100)
                : String.format(Locale.ROOT, "%.2fx", ratio);
        String target = unit.equals("%") ? String.format(Locale.ROOT, ">= %.0f %%", bound * 100)
                : String.format(Locale.ROOT, "<= %.1fx", bound);
        // Both forms show the ratio in hundredths (90 %, 2.00x): a miss that rounds to its
        // bound shows one more digit (89.8 %, not 90 %).
        if (!ok && Math.round(ratio * 100) == Math.round(bound * 100)) {
            value = unit.equals("%") ? String.format(Locale.ROOT, "%.1f %%", ratio * 100)
                    : String.format(Locale.ROOT, "%.3fx", ratio);
        }
        return value + (ok ? " (met, " : " (**missed**, ") + target + ")";
    }
}
