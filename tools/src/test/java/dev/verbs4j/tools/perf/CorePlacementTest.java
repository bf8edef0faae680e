package dev.verbs4j.tools.perf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CorePlacementTest {

    @Test
    void aRoundTripIsTheTimeTakenOverTheTripsMade() {
        long[] now = {0};
        // Each look at the clock moves it one whole duration on: the first batch of 1,000 trips ends the look.
        double ns = CorePlacement.roundTripNs(1_000_000, () -> {
            long t = now[0];
            now[0] += 1_000_000;
            return t;
        });
        assertEquals(1_000.0, ns);
    }

    @Test
    void coresAreNearOrFarByTheBound() {
        assertTrue(CorePlacement.same(30, 75), "both sharing a cache");
        assertTrue(CorePlacement.same(315, 340), "both across dies");
        assertFalse(CorePlacement.same(72, 320));
        assertFalse(CorePlacement.same(CorePlacement.FAR_NS + 1, CorePlacement.FAR_NS));
    }
}
