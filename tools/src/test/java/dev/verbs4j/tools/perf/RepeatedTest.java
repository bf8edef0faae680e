package dev.verbs4j.tools.perf;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The median and spread that {@code perf --repeat} and the targets table quote. */
class RepeatedTest {
    @Test
    void anOddCountTakesTheMiddleValue() {
        Repeated r = Repeated.of(new double[] {9.0, 4.0, 5.0, 100.0, 6.0});
        assertEquals(6.0, r.median());
        assertEquals(4.0, r.min());
        assertEquals(100.0, r.max());
        assertEquals(5, r.count());
        assertEquals(1600.0, r.spreadPercent(), 1e-9);
    }

    @Test
    void anEvenCountTakesTheMeanOfTheTwoMiddleValues() {
        assertEquals(5.5, Repeated.of(new double[] {8.0, 5.0, 6.0, 1.0}).median());
    }

    @Test
    void bandwidthIsJudgedByItsAverageAndLatencyByItsTypicalValue() {
        Result bw = Result.bandwidth("write_bw", "test", 65536, 1000, 0.1, 0, 0);
        Result lat = Result.latency("write_lat", "test", 8, new long[] {3000, 1000, 2000}, 0);
        assertEquals(bw.avgGbps(), Repeated.of(List.of(bw)).median());
        assertEquals(2.0, Repeated.of(List.of(lat)).median());
        assertEquals("Gb/s", Repeated.unit(bw));
        assertEquals("us", Repeated.unit(lat));
        assertEquals("6.00 us (4.00-100.00, spread 1600.0 %)", Repeated.of(new double[] {9, 4, 5, 100, 6}).describe("us"));
    }

    @Test
    void theHigherOfTwoIsTheOneWithTheHigherMedian() {
        Repeated oneThread = Repeated.of(new double[] {20.0, 19.8, 20.7});
        Repeated perSide = Repeated.of(new double[] {15.2, 14.7, 23.9});
        assertEquals(oneThread, Repeated.higher(oneThread, perSide), "the median decides, not the best run");
        assertEquals(oneThread, Repeated.higher(perSide, oneThread));
        Repeated same = Repeated.of(new double[] {20.0, 1.0, 30.0});
        assertEquals(oneThread, Repeated.higher(oneThread, same), "a tie keeps the first");
    }

    @Test
    void noRepetitionIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Repeated.of(new double[0]));
    }
}
