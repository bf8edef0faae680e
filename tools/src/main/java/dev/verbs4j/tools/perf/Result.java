package dev.verbs4j.tools.perf;

import java.util.Arrays;
import java.util.Locale;

/** One measured line: a size, its throughput or latency distribution, and allocation per operation. */
record Result(String test, String setup, int bytes, int iterations, double seconds, double peakGbps, double avgGbps,
              double mpps, long[] latenciesNs, double allocatedBytesPerOp) {

    static Result bandwidth(String test, String setup, int bytes, int iterations, double seconds, double peakGbps,
                            double allocatedPerOp) {
        double avg = bytes * 8.0 * iterations / seconds / 1e9;
        return new Result(test, setup, bytes, iterations, seconds, Math.max(peakGbps, avg), avg, iterations / seconds / 1e6,
                null, allocatedPerOp);
    }

    static Result latency(String test, String setup, int bytes, long[] ns, double allocatedPerOp) {
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        double total = 0;
        for (long v : sorted) {
            total += v;
        }
        return new Result(test, setup, bytes, ns.length, total / 1e9, 0, 0, 0, sorted, allocatedPerOp);
    }

    double percentileUs(double p) {
        int i = (int) Math.min(latenciesNs.length - 1, Math.floor(p / 100.0 * latenciesNs.length));
        return latenciesNs[i] / 1000.0;
    }

    double averageUs() {
        return seconds * 1e6 / iterations;
    }

    String tableLine() {
        if (latenciesNs == null) {
            return String.format(Locale.ROOT, " %-10d %-10d %-14.3f %-14.3f %-12.4f %-10.2f", bytes, iterations, peakGbps,
                    avgGbps, mpps, allocatedBytesPerOp);
        }
        return String.format(Locale.ROOT, " %-10d %-10d %-9.2f %-9.2f %-10.2f %-9.2f %-9.2f %-9.2f %-10.2f", bytes, iterations,
                percentileUs(0), percentileUs(100), percentileUs(50), averageUs(), percentileUs(99), percentileUs(99.9),
                allocatedBytesPerOp);
    }

    static String tableHeader(boolean latency) {
        return latency
                ? " #bytes     #iters     t_min     t_max     t_typical  t_avg     t_99%     t_99.9%   alloc[B/op]  (usec)"
                : " #bytes     #iters     BW peak[Gb/s]  BW avg[Gb/s]   MsgRate[Mpps] alloc[B/op]";
    }

    String json() {
        StringBuilder sb = new StringBuilder("{\"test\":\"").append(test).append("\",\"setup\":\"").append(setup)
                .append("\",\"bytes\":").append(bytes).append(",\"iterations\":").append(iterations)
                .append(",\"allocated_bytes_per_op\":").append(String.format(Locale.ROOT, "%.3f", allocatedBytesPerOp));
        if (latenciesNs == null) {
            sb.append(String.format(Locale.ROOT, ",\"bw_peak_gbps\":%.4f,\"bw_avg_gbps\":%.4f,\"msg_rate_mpps\":%.5f",
                    peakGbps, avgGbps, mpps));
        } else {
            sb.append(String.format(Locale.ROOT,
                    ",\"t_min_us\":%.3f,\"t_typical_us\":%.3f,\"t_avg_us\":%.3f,\"t_p99_us\":%.3f,\"t_p999_us\":%.3f,\"t_max_us\":%.3f",
                    percentileUs(0), percentileUs(50), averageUs(), percentileUs(99), percentileUs(99.9), percentileUs(100)));
        }
        return sb.append('}').toString();
    }
}
