package dev.verbs4j.tools.perf;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One figure over the repetitions of a measurement ({@code perf --repeat N}), or the ratios of
 * paired runs ({@link #ratios}): its median, and its range, which says how far one run can be
 * trusted on a noisy machine.
 */
record Repeated(int count, double median, double min, double max) {

    static Repeated of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no repetitions");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Repeated(n, median, sorted[0], sorted[n - 1]);
    }

    /** The figure a result is judged by: average bandwidth, or typical (median) latency. */
    static Repeated of(List<Result> runs) {
        double[] values = new double[runs.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = figure(runs.get(i));
        }
        return of(values);
    }

    /**
     * The ratios of paired runs: each run of {@code of} against the run of {@code against}
     * taken in the same repetition (right before it), times {@code factor}; their median
     * is what a target judges, so that a machine that is slower for a minute is slower on
     * both sides of a ratio.
     */
    static Repeated ratios(List<Result> of, List<Result> against, double factor) {
        if (of.size() != against.size()) {
            throw new IllegalArgumentException(of.size() + " runs against " + against.size() + ": runs must come in pairs");
        }
        double[] ratios = new double[of.size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = figure(of.get(i)) / (factor * figure(against.get(i)));
        }
        return of(ratios);
    }

    static double figure(Result r) {
        return r.latenciesNs() == null ? r.avgGbps() : r.percentileUs(50);
    }

    static String unit(Result r) {
        return r.latenciesNs() == null ? "Gb/s" : "us";
    }

    /** The range as a share of the median, in percent. */
    double spreadPercent() {
        return median == 0 ? 0 : (max - min) / median * 100;
    }

    /** For example {@code 10.32 Gb/s (9.80-10.90, spread 10.7 %)}. */
    String describe(String unit) {
        return String.format(Locale.ROOT, "%.2f %s (%.2f-%.2f, spread %.1f %%)", median, unit, min, max, spreadPercent());
    }
}
