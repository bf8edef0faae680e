package dev.verbs4j.tools.perf;

import dev.verbs4j.Device;
import dev.verbs4j.tools.DeviceChoice;
import dev.verbs4j.tools.compat.perftest.PerftestCompat;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verbs4j perf TEST [options] [HOST]}: perftest's measurements for any provider, plus
 * ATOMIC WRITE and FLUSH (which perftest lacks) and the raw UDP baseline of the same
 * machine. Both ends run in this process, or, as with perftest, the responder is
 * {@code verbs4j perf --server} in another process or on another host and this is its client.
 * Prints perftest's table and, with {@code --json FILE}, appends one JSON object per line.
 */
public final class PerfCommand {
    static final List<String> TESTS = List.of("write_bw", "read_bw", "send_bw", "atomic_bw", "atomic_write_bw", "flush_bw",
            "write_lat", "read_lat", "send_lat", "atomic_lat", "atomic_write_lat", "write8_lat", "flush_lat", "flush_mr_lat",
            "mr_cycle", "mw_cycle", "fr_cycle", "odp_bw", "udp_bw", "udp_lat");
    /** The tests whose responder may be a server elsewhere. */
    static final List<String> TWO_SIDED = TESTS.subList(0, TESTS.indexOf("mr_cycle"));

    private PerfCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (PerftestCompat.requested(args)) {
            return PerftestCompat.run(args, out, err);
        }
        PerfOptions o = PerfOptions.parse(args);
        Progress.attach(err, Progress.onTerminal());
        if (o.test != null && !TESTS.contains(o.test)) {
            throw new IllegalArgumentException("unknown test " + o.test + "; one of " + String.join(", ", TESTS));
        }
        if (System.getProperty("verbs4j.soft.progress") == null) {
            System.setProperty("verbs4j.soft.progress", o.progress);
        }
        if (o.server) {
            new PerfServer(DeviceChoice.choose(o.provider, o.device, o.address), out).serve(o.port);
            return 0;
        }
        if (o.test == null) {
            return PerfTargets.run(o, out);
        }
        List<Result> results = new ArrayList<>();
        List<Integer> sizes = o.sizesFor(defaultSize(o), 2, 1 << 20);
        long bufferSize = bufferSize(sizes.stream().mapToInt(Integer::intValue).max().orElse(defaultSize(o)));
        if (o.host != null) {
            results.addAll(againstServer(o, sizes, bufferSize, out));
        } else if (o.test.startsWith("udp")) {
            results.addAll(udp(o, out));
        } else {
            try (Loopback lb = new Loopback(o.provider, bufferSize, o.depth, o.mtu, true, o.persistent,
                    o.test.equals("fr_cycle"))) {
                printHeader(o, lb, out);
                if (o.test.equals("odp_bw")) {
                    for (int size : sizes) {
                        for (Result r : OdpTests.run(lb, size, o.iterationsOr(4_000), o.depth)) {
                            out.println(r.test().startsWith("odp_register")
                                    ? String.format(java.util.Locale.ROOT, " %s: %.3f ms", r.test(), r.seconds() * 1e3)
                                    : " " + r.test() + ":" + r.tableLine());
                            results.add(r);
                        }
                    }
                    sizes = List.of();
                }
                for (int size : sizes) {
                    results.addAll(repeat(o, out, () -> o.test.endsWith("_cycle")
                            ? MemoryTests.cycles(o.test, lb, size, o.iterationsOr(20_000)) : measure(o, lb, size)));
                }
                printCounters(lb, out);
            }
        }
        if (o.json != null) {
            try {
                List<String> lines = results.stream().map(Result::json).toList();
                Files.write(Path.of(o.json), lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return 0;
    }

    /**
     * {@code o.repeat} runs of one measurement, each printed as a table line, then (when more
     * than one) the median of their figure and its spread.
     */
    private static List<Result> repeat(PerfOptions o, PrintStream out, java.util.function.Supplier<Result> measurement) {
        List<Result> runs = new ArrayList<>(o.repeat);
        for (int i = 0; i < o.repeat; i++) {
            Result r = measurement.get();
            out.println(r.tableLine());
            runs.add(r);
        }
        if (runs.size() > 1) {
            out.println(" median of " + runs.size() + ": " + Repeated.of(runs).describe(Repeated.unit(runs.get(0))));
        }
        return runs;
    }

    /** One size of a bandwidth or latency test, with perftest's default iteration counts. */
    static Result measure(PerfOptions o, PerfPair pair, int size) {
        return o.isLatency() ? VerbsTests.latency(o.test, pair, size, o.iterationsOr(10_000), o.warmUp, o.threads, o.durationNs())
                : VerbsTests.bandwidth(o.test, pair, size, o.iterationsOr(size >= 65536 ? 5_000 : 50_000), o.warmUp,
                        new VerbsTests.Pipeline(o.depth, o.qps, o.cqMod, o.postList), o.durationNs());
    }

    /** The client of {@code verbs4j perf --server} on {@code o.host}. */
    private static List<Result> againstServer(PerfOptions o, List<Integer> sizes, long bufferSize, PrintStream out) {
        List<Result> results = new ArrayList<>();
        Device device = DeviceChoice.choose(o.provider, o.device, o.address);
        try (PerfClient client = PerfClient.connect(device, o.host, o.port, bufferSize, o.depth, o.mtu, o.qps, o.persistent)) {
            printHeader(o, client, out);
            for (int size : sizes) {
                results.addAll(repeat(o, out, () -> measure(o, client, size)));
            }
            printCounters(client, out);
        }
        return results;
    }

    /** What runs where, and the table's header. */
    private static void printHeader(PerfOptions o, PerfPair pair, PrintStream out) {
        out.println("verbs4j perf " + o.test + ": " + pair.description + ", progress " + System.getProperty("verbs4j.soft.progress"));
        out.println(Result.tableHeader(o.isLatency()));
    }

    /** The soft devices' counters of the run (nothing for other providers). */
    private static void printCounters(PerfPair pair, PrintStream out) {
        String counters = pair.softCounters();
        if (!counters.isEmpty()) {
            out.println(" counters:" + counters);
        }
    }

    private static int defaultSize(PerfOptions o) {
        return o.test.startsWith("flush") ? 4096 : o.isLatency() ? 8 : 65536;
    }

    /** Room for a message and, at {@link PingPong#REPLY} and beyond, the reply (and the read-back areas). */
    private static long bufferSize(int maxSize) {
        return Math.max(1 << 16, 2L * maxSize + 16384);
    }

    private static List<Result> udp(PerfOptions o, PrintStream out) {
        List<Result> results = new ArrayList<>();
        boolean latency = o.isLatency();
        try (UdpBaseline udp = UdpBaseline.onLoopback()) {
            out.println("verbs4j perf " + o.test + ": raw UDP baseline ("
                    + (latency || !UdpBaseline.batched() ? "DatagramChannel" : "the soft provider's raw sockets, sends held per step")
                    + "), 127.0.0.1 <-> 127.0.0.2");
            out.println(Result.tableHeader(latency));
            for (int size : o.sizesFor(latency ? 8 : 65536, 2, 1 << 20)) {
                results.addAll(repeat(o, out, () -> {
                    try {
                        return latency ? udp.latency(size, o.iterationsOr(10_000), o.warmUp, o.threads > 1)
                                : udp.bandwidth(size, o.mtu.bytes(), o.iterationsOr(size >= 65536 ? 5_000 : 50_000), o.warmUp,
                                        o.threads > 1, UdpBaseline.batched());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return results;
    }
}
