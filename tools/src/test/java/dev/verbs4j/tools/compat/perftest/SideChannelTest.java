package dev.verbs4j.tools.compat.perftest;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The fixed-size pieces of perftest's exchange that are not key messages. */
class SideChannelTest {
    @Test
    void readsVersionsAndMtusAsCDoes() {
        assertEquals(6.06, SideChannel.leadingNumber(SideChannel.cString(new byte[] {'6', '.', '0', '6', 0, 0, 0})));
        assertEquals(5.0, SideChannel.leadingNumber("5"));
        assertEquals(0.0, SideChannel.leadingNumber("x5"));
        assertEquals(0.0, SideChannel.leadingNumber(""));
    }

    @Test
    void bandwidthReportFieldsAreBigEndianLongsAndDoubles() {
        BwReport r = new BwReport(65536, 5000, 1.5, 1.25, 0.002);

        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 1, 0, 0}, r.field(0));
        assertArrayEquals(ByteBuffer.allocate(8).putLong(5000).array(), r.field(1));
        assertArrayEquals(new byte[] {0x3f, (byte) 0xf8, 0, 0, 0, 0, 0, 0}, r.field(2));
        assertEquals(r, BwReport.of(new byte[][] {r.field(0), r.field(1), r.field(2), r.field(3), r.field(4)}));
    }
}
