package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Mtu;
import dev.verbs4j.tools.OptionArgs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.verbs4j.tools.OptionArgs.value;

/**
 * {@code verbs4j perf --compat perftest TEST [options] [HOST]} (or {@code --compat ib_write_bw}
 * and so on): perftest's own options, spelled as perftest spells them, for the part of them
 * that applies. Without a host this side is the server, with one the client.
 */
public final class PerftestOptions {
    static final String USAGE = """
            usage: verbs4j perf --compat perftest TEST [options] [HOST]
                   verbs4j perf --compat ib_TEST [options] [HOST]
              the server (no HOST) or the client of perftest's ib_TEST, speaking its TCP exchange or, with -R, its
              exchange over a connection-manager connection;
              TEST: write_bw read_bw send_bw atomic_bw write_lat read_lat send_lat atomic_lat
              -d, --ib-dev NAME        device (default: the provider's first, or the one --address makes)
              -i, --ib-port N          device port (default 1)
              -p, --port N             TCP port of the exchange, or with -R the connection manager's (default 18515)
              -R, --rdma_cm            connect through the connection manager, as perftest's -R
              -s, --size BYTES         message size (default 65536 for _bw, 2 for _lat, 8 for atomics)
              -a, --all                every size from 2 to 2^23 (not for the atomics)
              -n, --iters N            iterations (default 5000 for write_bw, 1000 otherwise)
              -q, --qp N               queue pairs (bandwidth tests; default 1)
              -x, --gid-index N        GID index (default: the first IPv4-mapped GID)
              -m, --mtu BYTES          path MTU 256..4096 (default: the port's active MTU)
              -t, --tx-depth N         send queue depth (default 128 for _bw, 1 for _lat)
              -r, --rx-depth N         receive queue depth (send tests; default 512)
              -A, --atomic_type T      FETCH_AND_ADD (default) or CMP_AND_SWAP
              --odp                    register the buffer with On-Demand Paging
              -F, --CPU-freq           accepted (no cycle counter is read here)
              --report_gbits           bandwidth in Gb/s instead of MB/s
              --provider NAME          soft (default) or ibverbs
              --address IP             make a soft device on IP (in a network namespace, on another host); with -R
                                       also the address the connection manager binds or resolves from
              --progress thread|caller the soft provider's progress model (default thread)
            """;

    /** perftest options this mode knows and cannot honour, with the reason it says. */
    private static final Map<String, String> REFUSED = Map.ofEntries(
            Map.entry("-z", "the rdma_cm connection (-z) is not implemented"),
            Map.entry("--com_rdma_cm", "the rdma_cm connection (-z) is not implemented"),
            Map.entry("-b", "bidirectional runs (-b) are not implemented"),
            Map.entry("--bidirectional", "bidirectional runs (-b) are not implemented"),
            Map.entry("-D", "timed runs (-D) are not implemented; use -n"),
            Map.entry("--duration", "timed runs (-D) are not implemented; use -n"),
            Map.entry("-e", "completion events (-e) are not implemented; completions are polled"),
            Map.entry("--events", "completion events (-e) are not implemented; completions are polled"),
            Map.entry("-O", "dual-port runs (-O) are not implemented"),
            Map.entry("--dualport", "dual-port runs (-O) are not implemented"),
            Map.entry("--use_hugepages", "huge pages are not implemented"),
            Map.entry("--use-srq", "a shared receive queue (--use-srq) is not implemented"),
            Map.entry("--mmap", "a mapped file as the buffer is not implemented"));

    PerftestTest test;
    String host;
    String device;
    int ibPort = 1;
    int port = 18515;
    final List<Integer> sizes = new ArrayList<>();
    boolean allSizes;
    int iterations = -1;
    int qps = 1;
    int gidIndex = -1;
    Mtu mtu;
    int txDepth = -1;
    int rxDepth = 512;
    boolean compareAndSwap;
    boolean odp;
    /** -R: the exchange and the connections through the connection manager. */
    boolean rdmaCm;
    boolean reportGbits;
    String provider = "soft";
    String address;
    String progress;

    /**
     * @param args the arguments after {@code --compat}: {@code perftest TEST ...} or {@code ib_TEST ...}
     * @throws IllegalArgumentException for anything unknown, malformed or refused, with the reason
     */
    public static PerftestOptions parse(String[] args) {
        PerftestOptions o = new PerftestOptions();
        int i = 0;
        if (i < args.length && args[i].equals("perftest")) {
            i++;
            if (i >= args.length) {
                throw new IllegalArgumentException("--compat perftest needs a test: " + USAGE);
            }
        }
        if (i >= args.length) {
            throw new IllegalArgumentException("--compat needs perftest and a test, or a program name: " + USAGE);
        }
        o.test = PerftestTest.of(args[i++]);
        for (; i < args.length; i++) {
            String a = args[i];
            if (REFUSED.containsKey(a)) {
                throw new IllegalArgumentException("refused: " + REFUSED.get(a));
            }
            switch (a) {
                case "-d", "--ib-dev" -> o.device = value(args, ++i, a);
                case "-i", "--ib-port" -> o.ibPort = number(args, ++i, a, 1, 255);
                case "-p", "--port" -> o.port = number(args, ++i, a, 1, 65535);
                case "-s", "--size" -> o.sizes.add(number(args, ++i, a, 1, 1 << 30));
                case "-a", "--all" -> o.allSizes = true;
                case "-n", "--iters" -> o.iterations = number(args, ++i, a, 5, Integer.MAX_VALUE);
                case "-q", "--qp" -> o.qps = number(args, ++i, a, 1, 1024);
                case "-x", "--gid-index" -> o.gidIndex = number(args, ++i, a, 0, 255);
                case "-m", "--mtu" -> o.mtu = mtu(value(args, ++i, a));
                case "-t", "--tx-depth" -> o.txDepth = number(args, ++i, a, 1, 16384);
                case "-r", "--rx-depth" -> o.rxDepth = number(args, ++i, a, 1, 16384);
                case "-A", "--atomic_type" -> o.compareAndSwap = atomicType(value(args, ++i, a));
                case "-c", "--connection" -> connection(value(args, ++i, a));
                case "-R", "--rdma_cm" -> o.rdmaCm = true;
                case "--odp" -> o.odp = true;
                case "-F", "--CPU-freq" -> { }
                case "--report_gbits" -> o.reportGbits = true;
                case "--provider" -> o.provider = value(args, ++i, a);
                case "--address" -> o.address = value(args, ++i, a);
                case "--progress" -> o.progress = progress(value(args, ++i, a));
                default -> {
                    if (a.startsWith("-") || o.host != null) {
                        throw new IllegalArgumentException("unknown or unsupported option " + a + "\n" + USAGE);
                    }
                    o.host = a;
                }
            }
        }
        o.check();
        return o;
    }

    private void check() {
        if (test.verb == PerftestTest.Verb.ATOMIC && (allSizes || sizes.stream().anyMatch(s -> s != 8))) {
            throw new IllegalArgumentException("refused: " + test.program() + " moves 8-byte words; -s other than 8 and -a do not apply");
        }
        if (allSizes && !sizes.isEmpty()) {
            throw new IllegalArgumentException("-a runs every size; it takes no -s");
        }
        if (sizes.size() > 1) {
            throw new IllegalArgumentException("one -s, as perftest takes");
        }
        if (test.latency && qps > 1) {
            throw new IllegalArgumentException("refused: " + test.program() + " runs on one queue pair; -q applies to the _bw tests");
        }
        if (compareAndSwap && test.verb != PerftestTest.Verb.ATOMIC) {
            throw new IllegalArgumentException("-A applies to ib_atomic_bw and ib_atomic_lat");
        }
        if (address != null && !provider.equals("soft")) {
            throw new IllegalArgumentException("--address makes a soft device; it cannot be used with --provider " + provider);
        }
        if (address != null && device != null) {
            throw new IllegalArgumentException("-d names a device, --address makes one: give one of them");
        }
    }

    /** The sizes to run: -a's powers of two (2 to 2^23, as perftest's loops), the one -s, or the default. */
    List<Integer> runSizes() {
        if (allSizes) {
            List<Integer> all = new ArrayList<>();
            for (int s = 2; s <= 1 << 23; s *= 2) {
                all.add(s);
            }
            return all;
        }
        return sizes.isEmpty() ? List.of(test.defaultSize()) : List.copyOf(sizes);
    }

    /** The largest size, which the buffer is made for (perftest's {@code MAX_SIZE} with -a). */
    int largestSize() {
        return runSizes().stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    int iterations() {
        return iterations > 0 ? iterations : test.defaultIterations();
    }

    /** perftest's tx depth: 128 for bandwidth, 1 for latency, never more than the iterations. */
    int txDepth() {
        int depth = txDepth > 0 ? txDepth : test.latency ? 1 : 128;
        return Math.min(depth, iterations());
    }

    /** perftest's rx depth for the send tests, never more than the iterations. */
    int rxDepth() {
        return Math.min(rxDepth, iterations());
    }

    boolean isServer() {
        return host == null;
    }

    private static int number(String[] args, int i, String option, int min, int max) {
        return OptionArgs.number(args, i, option, min, max, Integer::decode);
    }

    private static Mtu mtu(String v) {
        try {
            return Mtu.ofBytes(Integer.parseInt(v));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-m must be 256, 512, 1024, 2048 or 4096, not " + v);
        }
    }

    private static boolean atomicType(String v) {
        return switch (v) {
            case "FETCH_AND_ADD" -> false;
            case "CMP_AND_SWAP" -> true;
            default -> throw new IllegalArgumentException("-A must be FETCH_AND_ADD or CMP_AND_SWAP, not " + v);
        };
    }

    private static void connection(String v) {
        if (!v.equals("RC")) {
            throw new IllegalArgumentException("refused: only RC connections are implemented (-c " + v + ")");
        }
    }

    private static String progress(String v) {
        if (!v.equals("thread") && !v.equals("caller")) {
            throw new IllegalArgumentException("--progress must be thread or caller, not " + v);
        }
        return v;
    }
}
