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
    void aRatioIsTheMedianOfEachRepetitionsOwnRatio() {
        // The machine is four times slower in the second repetition, on both sides of its
        // pair: the pairs' ratios are 3, 2 and 2.2; the medians taken apart would give 3 / 1.
        List<Result> tests = List.of(latency(3), latency(8), latency(2.2));
        List<Result> baselines = List.of(latency(1), latency(4), latency(1));
        Repeated r = Repeated.ratios(tests, baselines, 1);
        assertEquals(2.2, r.median(), 1e-9);
        assertEquals(2.0, r.min(), 1e-9);
        assertEquals(3.0, r.max(), 1e-9);
        assertEquals(1.1, Repeated.ratios(tests, baselines, 2).median(), 1e-9, "a round trip against two half ones");
        assertEquals(3, r.count());
    }

    @Test
    void bandwidthRatiosPairTheAverages() {
        // The third repetition's stream was slow too: the pairs' ratios are 0.5, 0.75 and 1;
        // the medians taken apart would give 20 / 40.
        List<Result> tests = List.of(bandwidth(20), bandwidth(30), bandwidth(10));
        List<Result> streams = List.of(bandwidth(40), bandwidth(40), bandwidth(10));
        Repeated r = Repeated.ratios(tests, streams, 1);
        assertEquals(0.75, r.median(), 1e-9);
        assertEquals(0.5, r.min(), 1e-9);
        assertEquals(1.0, r.max(), 1e-9);
    }

    @Test
    void runsThatDoNotComeInPairsAreAnError() {
        List<Result> one = List.of(latency(1));
        List<Result> two = List.of(latency(1), latency(2));
        assertThrows(IllegalArgumentException.class, () -> Repeated.ratios(one, two, 1));
    }

    /** A latency run whose typical value is {@code us}. */
    private static Result latency(double us) {
        long ns = Math.round(us * 1000);
        return Result.latency("write_lat", "test", 8, new long[] {ns, ns, ns}, 0);
    }

    /** A bandwidth run that averaged {@code gbps}: one 1.25 MB message a millisecond is 10 Gb/s. */
    private static Result bandwidth(double gbps) {
        return Result.bandwidth("write_bw", "test", 1_250_000, 1, 1e-3 * 10 / gbps, 0, 0);
    }

    @Test
    void noRepetitionIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Repeated.of(new double[0]));
    }
}
