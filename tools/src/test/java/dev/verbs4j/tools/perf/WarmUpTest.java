package dev.verbs4j.tools.perf;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How many unmeasured operations run before a measurement, on a clock each run moves on. */
class WarmUpTest {
    /** The runs of a warm-up whose every run takes {@code nsPerRun} on the clock it is given. */
    private static List<Integer> runs(int iterations, int fixed, long nsPerRun) {
        List<Integer> runs = new ArrayList<>();
        long[] now = {1_000_000_000L};
        int done = WarmUp.run(iterations, fixed, MIN_NS, () -> now[0], n -> {
            runs.add(n);
            now[0] += nsPerRun;
        });
        assertEquals(done, runs.stream().mapToInt(Integer::intValue).sum());
        return runs;
    }

    /** The shortest warm-up these runs are given. */
    private static final long MIN_NS = WarmUp.FRESH_PEER_NS;

    /** Runs slow enough that two last the shortest warm-up. */
    private static final long SLOW = MIN_NS / 2;

    @Test
    void byDefaultAsManyAsTheMeasurementUpToTheCapInTwoRuns() {
        assertEquals(List.of(2_500, 2_500), runs(5_000, -1, SLOW));
        assertEquals(List.of(WarmUp.MAX / 2, WarmUp.MAX / 2), runs(1_000_000, -1, SLOW));
    }

    @Test
    void byDefaultFastRunsGoOnUntilTheShortestWarmUpHasPassed() {
        // Each run takes a 50th of it: two runs, then 48 more of the first half's size.
        List<Integer> runs = runs(5_000, -1, MIN_NS / 50);
        assertEquals(50, runs.size());
        assertEquals(Collections.nCopies(50, 2_500), runs);
        assertEquals(List.of(1, 2, 1, 1), runs(3, -1, MIN_NS / 4), "a quarter of it each: four runs, the last two of one");
    }

    @Test
    void aNumberGivenIsRunAsGivenInTwoHalvesHoweverFast() {
        assertEquals(List.of(20_000, 20_000), runs(5_000, 40_000, 0));
        assertEquals(List.of(3, 4), runs(1_000_000, 7, 0));
        assertEquals(List.of(1), runs(1_000_000, 1, 0));
    }

    @Test
    void aShapeMeasuredBeforeInThisProcessWarmsUpByCountAlone() {
        String shape = "udp_bw 65536 a stream measured before";
        WarmUp.floorNs(false, shape);
        List<Integer> runs = new ArrayList<>();
        WarmUp.run(5_000, -1, shape, runs::add);
        assertEquals(List.of(2_500, 2_500), runs);
    }

    @Test
    void inThisProcessOnlyAShapesFirstMeasurementHasTheFloor() {
        assertEquals(WarmUp.FRESH_PEER_NS, WarmUp.floorNs(false, "write_bw 65536 test pair thread"));
        assertEquals(0, WarmUp.floorNs(false, "write_bw 65536 test pair thread"));
        assertEquals(WarmUp.FRESH_PEER_NS, WarmUp.floorNs(false, "write_bw 65536 test pair caller"), "another progress model");
        assertEquals(WarmUp.FRESH_PEER_NS, WarmUp.floorNs(true, "write_bw 65536 test pair thread"), "a peer elsewhere, every time");
    }

    @Test
    void noOperationsMeansNoRun() {
        assertEquals(List.of(), runs(5_000, 0, 0));
        assertEquals(List.of(), runs(0, -1, 0));
    }
}
