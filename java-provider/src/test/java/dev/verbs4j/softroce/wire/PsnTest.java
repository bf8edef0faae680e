package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PsnTest {
    @Test
    void nextWrapsFromTheLargestPsnToZero() {
        assertEquals(0, Psn.next(0xFFFFFF));
        assertEquals(1, Psn.next(0));
    }

    @Test
    void addWrapsBothWays() {
        assertEquals(0x000002, Psn.add(0xFFFFFE, 4));
        assertEquals(0xFFFFFE, Psn.add(0x000002, -4));
        assertEquals(0x123456, Psn.add(0x123456, Psn.MODULUS));
    }

    @Test
    void compareSeesAPsnJustAfterTheWrapAsLater() {
        assertTrue(Psn.compare(0x000000, 0xFFFFFF) > 0);
        assertTrue(Psn.compare(0xFFFFFF, 0x000000) < 0);
        assertEquals(1, Psn.compare(0x000000, 0xFFFFFF));
        assertEquals(-1, Psn.compare(0xFFFFFF, 0x000000));
        assertTrue(Psn.isBefore(0xFFFFF0, 0x000010));
        assertFalse(Psn.isBefore(0x000010, 0xFFFFF0));
    }

    @Test
    void compareIsSignedWithinHalfTheSpace() {
        assertEquals(0, Psn.compare(0x5A5A5A, 0x5A5A5A));
        assertEquals(Psn.HALF - 1, Psn.compare(Psn.HALF - 1, 0));
        assertEquals(-Psn.HALF, Psn.compare(Psn.HALF, 0)); // exactly half way reads as "before"
        assertEquals(-(Psn.HALF - 1), Psn.compare(0, Psn.HALF - 1));
    }

    @Test
    void compareIgnoresBitsAboveThePsn() {
        int ackReqAndPsn = 0x8000_0005;
        assertEquals(0, Psn.compare(ackReqAndPsn, 5));
        assertEquals(2, Psn.compare(0xFF00_0007, 5));
    }

    @Test
    void distanceCountsForwardAcrossTheWrap() {
        assertEquals(2, Psn.distance(0xFFFFFF, 0x000001));
        assertEquals(0xFFFFFE, Psn.distance(0x000001, 0xFFFFFF));
        assertEquals(0, Psn.distance(42, 42));
    }

    @Test
    void onlyTwentyFourBitValuesAreValid() {
        assertTrue(Psn.isValid(0));
        assertTrue(Psn.isValid(0xFFFFFF));
        assertFalse(Psn.isValid(0x1000000));
        assertFalse(Psn.isValid(-1));
    }
}
