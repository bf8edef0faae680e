package dev.verbs4j.tools.perf;

import dev.verbs4j.Mtu;

import java.util.ArrayList;
import java.util.List;

import static dev.verbs4j.tools.OptionArgs.value;

/**
 * The options of {@code verbs4j perf}, named as perftest names them where they match:
 * {@code -s/--size}, {@code -a} (all sizes), {@code -n/--iters}, {@code -m/--mtu},
 * {@code -t/--tx-depth}, {@code -q/--qps}, {@code -Q/--cq-mod}, {@code -l/--post-list}, {@code -D/--duration}, {@code -p/--port}; plus {@code --provider}, {@code --device},
 * {@code --address}, {@code --progress}, {@code --repeat}, {@code -w/--warmup} (unmeasured
 * operations before each measurement) and {@code --json}. With no test, the
 * targets table ({@link PerfTargets}). As in perftest, a host after the test
 * makes this the client of the server there ({@code --server}); with neither, both ends run
 * in this process.
 */
final class PerfOptions {
    String test;
    String provider = "soft";
    List<Integer> sizes = new ArrayList<>();
    boolean allSizes;
    int iterations = -1;
    Mtu mtu = Mtu.MTU_4096;
    int depth = 64;
    String progress = "caller";
    String json;
    boolean persistent;
    /** write_lat: 1 thread drives both sides in turn, 2 gives each side its own (as ib_write_lat's two processes). */
    int threads = 1;
    /** Bandwidth tests: queue pairs to spread the requests over (perftest's {@code -q}). */
    int qps = 1;
    /** Bandwidth tests: a completion for every this many requests of a pair (perftest's {@code -Q}, same default). */
    int cqMod = 100;
    /** Bandwidth tests: requests per post call (perftest's {@code -l}). */
    int postList = 1;
    /** Bandwidth and latency tests: run for this many seconds (perftest's {@code -D}), or 0 for a count. */
    int durationSeconds;
    /** Unmeasured operations before each measurement, or -1 for {@link WarmUp}'s rule. */
    int warmUp = -1;
    /** Each measurement this many times, with the median and spread of its figure. */
    int repeat = 1;
    /** Serve one client ({@code --server}); the test is the client's to choose. */
    boolean server;
    /** The server to run against, or null. */
    String host;
    /** The TCP port of the side channel (perftest's default). */
    int port = 18515;
    /** With a server or a host: the device, or null for the provider's first. */
    String device;
    /** With a server or a host: an IP address to make a soft device on, or null. */
    String address;

    static PerfOptions parse(String[] args) {
        PerfOptions o = new PerfOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-s", "--size" -> o.sizes.add(Integer.parseInt(value(args, ++i, a)));
                case "-a", "--all" -> o.allSizes = true;
                case "-n", "--iters" -> o.iterations = Integer.parseInt(value(args, ++i, a));
                case "-m", "--mtu" -> o.mtu = Mtu.ofBytes(Integer.parseInt(value(args, ++i, a)));
                case "-t", "--tx-depth" -> o.depth = Integer.parseInt(value(args, ++i, a));
                case "--provider" -> o.provider = value(args, ++i, a);
                case "--progress" -> o.progress = value(args, ++i, a);
                case "--json" -> o.json = value(args, ++i, a);
                case "--persistent" -> o.persistent = true;
                case "--threads" -> o.threads = Integer.parseInt(value(args, ++i, a));
                case "-q", "--qps" -> o.qps = Integer.parseInt(value(args, ++i, a));
                case "-Q", "--cq-mod" -> o.cqMod = Integer.parseInt(value(args, ++i, a));
                case "-l", "--post-list" -> o.postList = Integer.parseInt(value(args, ++i, a));
                case "-D", "--duration" -> o.durationSeconds = Integer.parseInt(value(args, ++i, a));
                case "--repeat" -> o.repeat = Integer.parseInt(value(args, ++i, a));
                case "-w", "--warmup" -> o.warmUp = Integer.parseInt(value(args, ++i, a));
                case "--server" -> o.server = true;
                case "-p", "--port" -> o.port = Integer.parseInt(value(args, ++i, a));
                case "-d", "--device" -> o.device = value(args, ++i, a);
                case "--address" -> o.address = value(args, ++i, a);
                default -> {
                    if (a.startsWith("-") || o.host != null) {
                        throw new IllegalArgumentException("unknown option " + a);
                    }
                    if (o.test == null) {
                        o.test = a;
                    } else {
                        o.host = a;
                    }
                }
            }
        }
        if (o.server) {
            o.checkServer();
            return o;
        }
        if (o.warmUp < -1) {
            throw new IllegalArgumentException("--warmup must be 0 or more");
        }
        if (o.repeat < 1 || o.repeat > 1000) {
            throw new IllegalArgumentException("--repeat must be 1..1000");
        }
        if (o.test == null) {
            // No test: the targets table (PerfTargets), every test beside its baseline.
            return o;
        }
        if (o.host != null && !PerfCommand.TWO_SIDED.contains(o.test)) {
            throw new IllegalArgumentException(o.test + " runs in one process; a server host applies to "
                    + String.join(", ", PerfCommand.TWO_SIDED));
        }
        if (o.host == null && (o.device != null || o.address != null)) {
            throw new IllegalArgumentException("--device and --address choose this side's device against a server;"
                    + " without a server host both ends use the provider's first two devices");
        }
        if (o.address != null && !o.provider.equals("soft")) {
            throw new IllegalArgumentException("--address makes a soft device; it cannot be used with --provider " + o.provider);
        }
        if (o.movesOneWord() && (o.allSizes || !o.sizes.isEmpty() && !o.sizes.equals(List.of(8)))) {
            throw new IllegalArgumentException(o.test + " moves one 8-byte word; -s and -a do not apply");
        }
        if (o.qps < 1 || o.qps > 1024) {
            throw new IllegalArgumentException("queue pairs must be 1..1024");
        }
        if (o.qps > 1 && !List.of("write_bw", "read_bw", "atomic_bw", "atomic_write_bw", "flush_bw").contains(o.test)) {
            throw new IllegalArgumentException("--qps applies to write_bw, read_bw, atomic_bw, atomic_write_bw and flush_bw");
        }
        if (o.durationSeconds < 0 || o.durationSeconds > 86_400) {
            throw new IllegalArgumentException("--duration must be 0..86400 seconds");
        }
        if (o.durationSeconds > 0 && !PerfCommand.TWO_SIDED.contains(o.test)) {
            throw new IllegalArgumentException("--duration applies to the bandwidth and latency tests");
        }
        if (o.cqMod < 1 || o.cqMod > 4096) {
            throw new IllegalArgumentException("--cq-mod must be 1..4096");
        }
        if (o.depth < 1 || o.depth > 4096) {
            throw new IllegalArgumentException("tx depth must be 1..4096");
        }
        if (o.postList < 1 || o.postList > o.depth) {
            throw new IllegalArgumentException("--post-list must be 1..tx depth (" + o.depth + ")");
        }
        return o;
    }

    /** A server takes the client's test and sizes: only the options about its own side apply. */
    private void checkServer() {
        if (host != null) {
            throw new IllegalArgumentException("--server serves clients; it takes no host");
        }
        if (test != null && !PerfCommand.TWO_SIDED.contains(test)) {
            throw new IllegalArgumentException(test + " runs in one process; a server serves "
                    + String.join(", ", PerfCommand.TWO_SIDED));
        }
        if (address != null && !provider.equals("soft")) {
            throw new IllegalArgumentException("--address makes a soft device; it cannot be used with --provider " + provider);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--port must be 1..65535");
        }
    }

    boolean isLatency() {
        return test.endsWith("_lat");
    }

    /** The atomics, ATOMIC WRITE and the 8-byte WRITE: their size is that of the word. */
    boolean movesOneWord() {
        return test.startsWith("atomic") || test.equals("write8_lat");
    }

    /** The sizes to run: given, all powers of two, or the perftest default for the test. */
    List<Integer> sizesFor(int defaultSize, int smallest, int largest) {
        if (test != null && movesOneWord()) {
            return List.of(8);
        }
        if (allSizes) {
            List<Integer> all = new ArrayList<>();
            for (int s = smallest; s <= largest; s *= 2) {
                all.add(s);
            }
            return all;
        }
        return sizes.isEmpty() ? List.of(defaultSize) : sizes;
    }

    long durationNs() {
        return durationSeconds * 1_000_000_000L;
    }

    int iterationsOr(int defaultIterations) {
        return iterations > 0 ? iterations : defaultIterations;
    }
}
