package dev.verbs4j.conformance.fuzz;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.Gid;
import dev.verbs4j.Provider;
import dev.verbs4j.RcConnector;
import dev.verbs4j.Verbs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One fuzzing run in this process: a warm-up run (which loads every class the calls reach
 * and lets the provider make what it keeps for the process), the process's resources taken
 * as the start, the run itself, everything closed, and the resources compared with the
 * start. Prints the seed first, then a summary; exits 0 when every call ended as allowed,
 * every object closed and the resources came back, else 1. {@link FuzzLauncher} runs it in
 * a child JVM.
 *
 * <pre>
 * FuzzMain --provider NAME [--device NAME] [--calls N] [--seed N] [--warmup N]
 * </pre>
 * It has no libibverbs counterpart: rdma-core ships no fuzzer of its API.
 */
public final class FuzzMain {
    private FuzzMain() {
    }

    /**
     * Runs the fuzzer in this JVM and exits as the class comment says.
     *
     * @param args the options above
     * @throws Exception when the run cannot start
     */
    public static void main(String[] args) throws Exception {
        FuzzOptions options = FuzzOptions.parse(args);
        System.out.println("fuzz: provider " + options.provider() + ", seed " + options.seed() + ", " + options.calls()
                + " calls (replay: --seed " + options.seed() + ")");
        System.exit(run(options) ? 0 : 1);
    }

    static boolean run(FuzzOptions options) throws InterruptedException {
        Provider provider = Verbs.provider(options.provider());
        Device device = options.device() == null ? provider.devices().getFirst()
                : provider.devices().stream().filter(d -> d.name().equals(options.device())).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("no device " + options.device()));
        Routes gids = routes(device, invalidatesWindows(options.provider(), device.name()));
        if (!gids.invalidatesWindows()) {
            System.out.println("fuzz: LOCAL_INV and SEND_WITH_INV name no window's rkey on " + device.name()
                    + ": the kernel's rxe faults when it invalidates a type 2 window that is not bound");
        }

        long warmupStart = System.nanoTime();
        if (!fuzz(device, gids, options.seed() ^ 0x5DEECE66DL, options.warmup(), "warm-up")) {
            return false;
        }
        ProcessResources.now();
        ProcessResources start = ProcessResources.settledTowards(ProcessResources.now());
        long runStart = System.nanoTime();
        boolean clean = fuzz(device, gids, options.seed(), options.calls(), "run");
        long runEnd = System.nanoTime();
        ProcessResources end = ProcessResources.settledTowards(start);
        List<String> leaks = end.differencesFrom(start);
        System.out.printf("fuzz: warm-up %.1f s, run %.1f s for %d calls%n", (runStart - warmupStart) / 1e9,
                (runEnd - runStart) / 1e9, options.calls());
        System.out.println("fuzz: resources at the start: " + start);
        System.out.println("fuzz: resources at the end:   " + end);
        leaks.forEach(l -> System.out.println("FUZZ LEAK " + l));
        boolean ok = clean && leaks.isEmpty();
        System.out.println(ok ? "fuzz: PASSED (seed " + options.seed() + ")" : "fuzz: FAILED (seed " + options.seed() + ")");
        return ok;
    }

    private static boolean fuzz(Device device, Routes gids, long seed, int calls, String what) {
        Outcomes outcomes = new Outcomes();
        World world = new World(device, outcomes);
        boolean ok = true;
        try {
            new Fuzzer(world, seed, gids).run(calls);
        } catch (Outcomes.Violation v) {
            System.out.println("FUZZ FAILURE in the " + what + " (seed " + seed + "): " + v.getMessage());
            if (v.getCause() != null) {
                v.getCause().printStackTrace(System.out);
            }
            ok = false;
        }
        List<String> stuck = world.closeAll();
        stuck.forEach(s -> System.out.println("FUZZ FAILURE in the " + what + ": would not close at the end: " + s));
        System.out.println("fuzz: " + what + ", " + outcomes.calls() + " calls; " + outcomes.summary());
        return ok && stuck.isEmpty();
    }

    /**
     * The GIDs routes may name: the device's own (a queue pair of this host answers), the
     * zero GID, and none else, so that no packet leaves for another host.
     */
    /**
     * Whether LOCAL_INV and SEND_WITH_INV may name a window's rkey. Not on the kernel's rxe:
     * invalidating a type 2 window that is not bound (never bound, or invalidated already)
     * drops a reference to a queue pair such a window does not have, and the kernel faults in
     * its work queue, which panics the host. There they name regions' keys and made-up ones.
     */
    static boolean invalidatesWindows(String provider, String device) {
        return !("ibverbs".equals(provider) && device.startsWith("rxe"));
    }

    private static Routes routes(Device device, boolean invalidatesWindows) {
        Set<Gid> gids = new LinkedHashSet<>();
        int ownIndex;
        try (DeviceContext ctx = device.open()) {
            ownIndex = RcConnector.chooseGidIndex(ctx, 1, ctx.queryPort(1).gidTableLength());
            gids.add(ctx.queryGid(1, ownIndex));
            for (int index = 0; index < 4; index++) {
                try {
                    Gid gid = ctx.queryGid(1, index);
                    if (!gid.equals(Gid.ZERO)) {
                        gids.add(gid);
                    }
                } catch (RuntimeException noSuchEntry) {
                    break;
                }
            }
        }
        gids.add(Gid.ZERO);
        return new Routes(new ArrayList<>(gids), ownIndex, invalidatesWindows);
    }

    /**
     * What requests may name on the device.
     *
     * @param gids               the GIDs, the device's chosen one first
     * @param ownIndex           the index of the first, as a route's source GID index
     * @param invalidatesWindows whether an invalidation may name a window's rkey ({@link #invalidatesWindows})
     */
    record Routes(List<Gid> gids, int ownIndex, boolean invalidatesWindows) {
    }
}
