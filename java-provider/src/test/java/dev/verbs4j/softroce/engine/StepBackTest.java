package dev.verbs4j.softroce.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The engine thread's looks while an application thread polls, on a clock the test moves. */
class StepBackTest {
    private static final long WINDOW = 100_000L;
    private static final long LONGEST = 1_000_000L;

    @Test
    void theFirstLookComesWhenTheWindowCloses() {
        StepBack stepBack = new StepBack(WINDOW, LONGEST);
        assertEquals(WINDOW - 30_000, stepBack.parkNanos(5_000_000, 5_030_000), "the window closes 70 µs on");
    }

    @Test
    void eachLookThatFindsThePollsGoingOnDoublesTheWaitUpToTheLongest() {
        StepBack stepBack = new StepBack(WINDOW, LONGEST);
        long now = 1_000_000_000L;
        long[] expected = {100_000, 200_000, 400_000, 800_000, 1_000_000, 1_000_000};
        for (long wait : expected) {
            assertEquals(wait, stepBack.parkNanos(now, now), "the application polled just now");
            now += wait;
        }
    }

    @Test
    void polledOutOfTheWindowOrNotAtAllTheEngineThreadTakesOverAndTheWaitsStartAgain() {
        StepBack stepBack = new StepBack(WINDOW, LONGEST);
        long now = 7_000_000L;
        stepBack.parkNanos(now, now);
        stepBack.parkNanos(now, now);
        assertEquals(0, stepBack.parkNanos(now - WINDOW, now), "the last poll is a whole window old");
        assertEquals(WINDOW, stepBack.parkNanos(now, now), "the waits start again from one window");
        stepBack.parkNanos(now, now);
        assertEquals(0, stepBack.parkNanos(0, now), "the application armed a queue: nobody helps");
        assertEquals(WINDOW, stepBack.parkNanos(now, now));
    }

    @Test
    void aPollNewerThanTheClockReadingParksAWholeWait() {
        StepBack stepBack = new StepBack(WINDOW, LONGEST);
        assertEquals(WINDOW, stepBack.parkNanos(2_000_500, 2_000_000), "polled after the clock was read");
    }

    @Test
    void aWindowLongerThanTheLongestWaitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new StepBack(LONGEST, WINDOW));
        assertThrows(IllegalArgumentException.class, () -> new StepBack(0, LONGEST));
    }
}
