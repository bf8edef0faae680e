package dev.verbs4j.conformance.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * The options of a fuzzing run, and the arguments that give them to {@link FuzzMain}.
 * It has no libibverbs counterpart: these are the fuzzer's options.
 *
 * @param provider the provider's name
 * @param device   the device's name, or null for the provider's first
 * @param calls    the calls of the run
 * @param seed     the seed of the run (the warm-up's is derived from it)
 * @param warmup   the calls of the warm-up run
 */
public record FuzzOptions(String provider, String device, int calls, long seed, int warmup) {

    static FuzzOptions parse(String[] args) {
        String provider = "soft";
        String device = null;
        int calls = 10_000;
        long seed = 1;
        int warmup = 2_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--provider" -> provider = value;
                case "--device" -> device = value;
                case "--calls" -> calls = Integer.parseInt(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("option " + args[args.length - 1] + " has no value");
        }
        return new FuzzOptions(provider, device, calls, seed, warmup);
    }

    List<String> toArgs() {
        List<String> out = new ArrayList<>(List.of("--provider", provider, "--calls", Integer.toString(calls),
                "--seed", Long.toString(seed), "--warmup", Integer.toString(warmup)));
        if (device != null) {
            out.addAll(List.of("--device", device));
        }
        return out;
    }
}
