package dev.verbs4j.softroce.transport;

import java.util.SplittableRandom;

/**
 * Seeded packet faults: loss, duplication, reordering and corruption, each with its own
 * probability. Decisions come from one seeded generator, so a run can be replayed.
 * Parsed from {@code loss:0.01,duplicate:0.01,reorder:0.02,corrupt:0.001,seed:42}.
 */
public final class FaultInjector {
    private final SplittableRandom random;
    private final double loss;
    private final double duplicate;
    private final double reorder;
    private final double corrupt;

    public FaultInjector(long seed, double loss, double duplicate, double reorder, double corrupt) {
        for (double p : new double[] {loss, duplicate, reorder, corrupt}) {
            if (p < 0 || p > 1) {
                throw new IllegalArgumentException("fault probabilities are between 0 and 1: " + p);
            }
        }
        this.random = new SplittableRandom(seed);
        this.loss = loss;
        this.duplicate = duplicate;
        this.reorder = reorder;
        this.corrupt = corrupt;
    }

    /**
     * Parses {@code name:value} pairs separated by commas; names are loss, duplicate,
     * reorder, corrupt and seed.
     *
     * @throws IllegalArgumentException for an unknown name or a malformed value
     */
    public static FaultInjector parse(String spec) {
        double l = 0;
        double d = 0;
        double r = 0;
        double c = 0;
        long seed = 1;
        for (String part : spec.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int colon = p.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("fault setting must be name:value: " + p);
            }
            String name = p.substring(0, colon);
            String value = p.substring(colon + 1);
            switch (name) {
                case "loss" -> l = Double.parseDouble(value);
                case "duplicate" -> d = Double.parseDouble(value);
                case "reorder" -> r = Double.parseDouble(value);
                case "corrupt" -> c = Double.parseDouble(value);
                case "seed" -> seed = Long.parseLong(value);
                default -> throw new IllegalArgumentException("unknown fault '" + name + "' (loss, duplicate, reorder, corrupt, seed)");
            }
        }
        return new FaultInjector(seed, l, d, r, c);
    }

    public boolean lose() {
        return loss > 0 && random.nextDouble() < loss;
    }

    public boolean duplicate() {
        return duplicate > 0 && random.nextDouble() < duplicate;
    }

    public boolean reorder() {
        return reorder > 0 && random.nextDouble() < reorder;
    }

    public boolean corrupt() {
        return corrupt > 0 && random.nextDouble() < corrupt;
    }

    /** A position in {@code [0, bound)}. */
    public int nextInt(int bound) {
        return random.nextInt(bound);
    }
}
