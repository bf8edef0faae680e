package dev.verbs4j.tools.compat;

import dev.verbs4j.Gid;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IbvDestinationTest {

    @Test
    void encodesAsTheProgramsPrintItWithTheTerminatingNul() {
        IbvDestination d = new IbvDestination(0, 0x11, 0xabcdef, Gid.parse("10.9.0.2"));
        byte[] wire = d.encode();
        assertEquals(52, wire.length);
        assertEquals("0000:000011:abcdef:00000000000000000000ffff0a090002",
                new String(wire, 0, 51, StandardCharsets.US_ASCII));
        assertEquals(0, wire[51]);
        assertEquals(d, IbvDestination.decode(wire, 0));
    }

    @Test
    void readsWhatTheProgramsWriteAndTreatsGarbageAsAnEmptySlot() {
        byte[] wire = Arrays.copyOf("0001:00012a:000007:fe800000000000000000000000000001".getBytes(StandardCharsets.US_ASCII), 52);
        IbvDestination d = IbvDestination.decode(wire, 0);
        assertEquals(1, d.lid());
        assertEquals(0x12a, d.qpn());
        assertEquals(7, d.psn());
        assertEquals(Gid.parse("fe80::1"), d.gid());
        byte[] garbage = Arrays.copyOf("ffffffff:zz:??".getBytes(StandardCharsets.US_ASCII), 52);
        assertEquals(IbvDestination.NONE, IbvDestination.decode(garbage, 0));
    }
}
