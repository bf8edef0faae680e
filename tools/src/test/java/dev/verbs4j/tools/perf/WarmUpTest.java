package dev.verbs4j.tools.perf;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How many unmeasured operations run before a measurement. */
class WarmUpTest {
    private static List<Integer> runs(int iterations, int fixed) {
        List<Integer> runs = new ArrayList<>();
        int done = WarmUp.run(iterations, fixed, runs::add);
        assertEquals(done, runs.stream().mapToInt(Integer::intValue).sum());
        return runs;
    }

    @Test
    void byDefaultAsManyAsTheMeasurementUpToTheCapInTwoRuns() {
        assertEquals(List.of(2_500, 2_500), runs(5_000, -1));
        assertEquals(List.of(WarmUp.MAX / 2, WarmUp.MAX / 2), runs(1_000_000, -1));
    }

    @Test
    void aNumberGivenIsRunAsGivenInTwoHalves() {
        assertEquals(List.of(20_000, 20_000), runs(5_000, 40_000));
        assertEquals(List.of(3, 4), runs(1_000_000, 7));
        assertEquals(List.of(1), runs(1_000_000, 1));
    }

    @Test
    void noOperationsMeansNoRun() {
        assertEquals(List.of(), runs(5_000, 0));
        assertEquals(List.of(), runs(0, -1));
    }
}
