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
    void byDefaultAsManyAsTheMeasurementUpToTheCap() {
        assertEquals(List.of(5_000), runs(5_000, -1));
        assertEquals(List.of(WarmUp.MAX), runs(1_000_000, -1));
    }

    @Test
    void aNumberGivenIsRunAsGiven() {
        assertEquals(List.of(40_000), runs(5_000, 40_000));
        assertEquals(List.of(7), runs(1_000_000, 7));
    }

    @Test
    void noOperationsMeansNoRun() {
        assertEquals(List.of(), runs(5_000, 0));
        assertEquals(List.of(), runs(0, -1));
    }
}
