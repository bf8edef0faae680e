package dev.verbs4j.conformance.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The loop: {@code calls} times, an action chosen by weight with the seeded random source,
 * its outcome judged. The choices depend only on the seed and on which earlier calls
 * succeeded, so a seed replays the same run as long as the device answers the same; the
 * last calls are kept for the report of a failure.
 */
final class Fuzzer {
    private static final int TRACE = 40;

    private final World world;
    private final Args args;
    private final List<Action> actions = new ArrayList<>();
    private final int[] cumulative;
    private final String[] trace = new String[TRACE];

    Fuzzer(World world, long seed, FuzzMain.Routes routes) {
        this.world = world;
        this.args = new Args(new Random(seed), world, routes);
        actions.addAll(new ResourceCalls(world).actions());
        actions.addAll(new WorkCalls(world).actions());
        cumulative = new int[actions.size()];
        int sum = 0;
        for (int i = 0; i < actions.size(); i++) {
            sum += actions.get(i).weight();
            cumulative[i] = sum;
        }
    }

    /**
     * Makes {@code calls} calls.
     *
     * @throws Outcomes.Violation at the first call that ended in what the API does not allow,
     *         its message naming the call and the ones before it
     */
    void run(int calls) {
        for (int i = 0; i < calls; i++) {
            Action action = choose();
            trace[i % TRACE] = i + " " + action.name();
            try {
                action.call().run(args);
                world.outcomes.succeeded(action.name());
            } catch (Throwable t) {
                try {
                    world.outcomes.failed(action.name(), t);
                } catch (Outcomes.Violation v) {
                    throw new Outcomes.Violation("call " + i + " (" + action.name() + "): " + v.getMessage()
                            + "\nthe calls up to it:\n" + recent(i), v.getCause());
                }
            }
        }
    }

    private Action choose() {
        int pick = args.random().nextInt(cumulative[cumulative.length - 1]);
        for (int i = 0; i < cumulative.length; i++) {
            if (pick < cumulative[i]) {
                return actions.get(i);
            }
        }
        throw new IllegalStateException("weights");
    }

    private String recent(int last) {
        StringBuilder out = new StringBuilder();
        for (int i = Math.max(0, last - TRACE + 1); i <= last; i++) {
            out.append("  ").append(trace[i % TRACE]).append('\n');
        }
        return out.toString();
    }
}
