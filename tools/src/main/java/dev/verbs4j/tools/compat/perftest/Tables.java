package dev.verbs4j.tools.compat.perftest;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/** perftest's result tables, in its column layout, so that scripts reading either parse both. */
final class Tables {
    private static final String RULE = "---------------------------------------------------------------------------------------";

    private Tables() {
    }

    static void bandwidthHeader(PrintStream out, boolean gbits) {
        out.println(RULE);
        out.println(gbits ? " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"
                : " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
    }

    static void bandwidthLine(PrintStream out, BwReport r) {
        out.println(String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f",
                r.sizeBytes(), r.iterations(), r.bwPeak(), r.bwAverage(), r.msgRateMpps()));
    }

    static void latencyHeader(PrintStream out) {
        out.println(RULE);
        out.println(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
                + "   99% percentile[usec]   99.9% percentile[usec] ");
    }

    /** One size's line from its samples (nanoseconds): the typical is the median, as perftest's. */
    static void latencyLine(PrintStream out, int size, int iterations, long[] samplesNs) {
        if (samplesNs.length == 0) {
            out.println(String.format(Locale.ROOT, " %-7d %-10d  (too few iterations to time)", size, iterations));
            return;
        }
        long[] s = samplesNs.clone();
        Arrays.sort(s);
        double sum = 0;
        for (long v : s) {
            sum += v;
        }
        double avg = sum / s.length;
        double squares = 0;
        for (long v : s) {
            squares += (v - avg) * (v - avg);
        }
        double stdev = Math.sqrt(squares / s.length);
        out.println(String.format(Locale.ROOT, " %-7d %-10d  %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f  \t\t%-7.2f",
                size, iterations, s[0] / 1e3, s[s.length - 1] / 1e3, s[s.length / 2] / 1e3, avg / 1e3, stdev / 1e3,
                percentile(s, 0.99) / 1e3, percentile(s, 0.999) / 1e3));
    }

    private static long percentile(long[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    static void rule(PrintStream out) {
        out.println(RULE);
    }
}
