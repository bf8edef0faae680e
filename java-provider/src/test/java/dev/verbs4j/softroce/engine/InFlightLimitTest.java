package dev.verbs4j.softroce.engine;

import dev.verbs4j.Mtu;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The device-wide limit of unacknowledged packets, from the receive buffer a socket reports. */
class InFlightLimitTest {
    @Test
    void aQueuedPacketCostsItsDatagramRoundedUpToAPowerOfTwoAndBookkeeping() {
        assertEquals(8448, DeviceEngine.queuedPacketBytes(4096), "as ss -m shows for a 4136-byte datagram");
        assertEquals(2304, DeviceEngine.queuedPacketBytes(1024), "as for a 1500-byte datagram");
        assertEquals(1280, DeviceEngine.queuedPacketBytes(256));
    }

    @Test
    void threeQuartersOfWhatTheBufferHoldsButNeverLessThanOneWindow() {
        assertEquals(744, DeviceEngine.inFlightLimit(8 << 20, Mtu.MTU_4096), "an 8 MiB buffer holds 993 full packets");
        assertEquals(Requester.MAX_UNACKED_PSNS, DeviceEngine.inFlightLimit(425_984, Mtu.MTU_4096),
                "a stock 208 KiB buffer (doubled) holds 50: one window still goes");
        assertEquals(Integer.MAX_VALUE, DeviceEngine.inFlightLimit(0, Mtu.MTU_4096), "a link that cannot tell is unlimited");
    }
}
