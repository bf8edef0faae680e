package dev.verbs4j.tools.perf;

import dev.verbs4j.Mtu;

import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code verbs4j perf}, named as perftest names them where they match:
 * {@code -s/--size}, {@code -a} (all sizes), {@code -n/--iters}, {@code -m/--mtu},
 * {@code -t/--tx-depth}, {@code -q/--qps}; plus {@code --provider}, {@code --progress} and {@code --json}.
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
                default -> {
                    if (a.startsWith("-") || o.test != null) {
                        throw new IllegalArgumentException("unknown option " + a);
                    }
                    o.test = a;
                }
            }
        }
        if (o.test == null) {
            throw new IllegalArgumentException("name a test: " + String.join(", ", PerfCommand.TESTS));
        }
        if (o.qps < 1 || o.qps > 1024) {
            throw new IllegalArgumentException("queue pairs must be 1..1024");
        }
        if (o.qps > 1 && !List.of("write_bw", "read_bw", "atomic_bw", "atomic_write_bw").contains(o.test)) {
            throw new IllegalArgumentException("--qps applies to write_bw, read_bw, atomic_bw and atomic_write_bw");
        }
        if (o.depth < 1 || o.depth > 4096) {
            throw new IllegalArgumentException("tx depth must be 1..4096");
        }
        return o;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    boolean isLatency() {
        return test.endsWith("_lat");
    }

    /** The sizes to run: given, all powers of two, or the perftest default for the test. */
    List<Integer> sizesFor(int defaultSize, int smallest, int largest) {
        if (allSizes) {
            List<Integer> all = new ArrayList<>();
            for (int s = smallest; s <= largest; s *= 2) {
                all.add(s);
            }
            return all;
        }
        return sizes.isEmpty() ? List.of(defaultSize) : sizes;
    }

    int iterationsOr(int defaultIterations) {
        return iterations > 0 ? iterations : defaultIterations;
    }
}
