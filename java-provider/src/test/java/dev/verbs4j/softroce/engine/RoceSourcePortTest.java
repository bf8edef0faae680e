package dev.verbs4j.softroce.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoceSourcePortTest {
    @Test
    void matchesThePortTheKernelRxeSentFrom() {
        // Captured: kernel QP 0x11 talking to soft QP 0x11 sent from UDP port 49441.
        assertEquals(49441, RoceSourcePort.of(0, 0x11, 0x11));
    }

    @Test
    void aGivenFlowLabelIsFoldedIntoFourteenBits() {
        assertEquals(0xC000 | (0x12345 & 0x3FFF) ^ (0x12345 >>> 14), RoceSourcePort.of(0x12345, 1, 2));
        for (int q = 1; q < 5000; q += 37) {
            int port = RoceSourcePort.of(0, q, q * 7 + 3);
            assertTrue(port >= 0xC000 && port <= 0xFFFF, "port " + port);
            assertEquals(port, RoceSourcePort.of(0, q * 7 + 3, q), "both ends of a connection pick the same port");
        }
    }
}
