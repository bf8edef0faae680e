package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Gid;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The key message against the bytes perftest's sprintf makes of the same values (KEY_PRINT_FMT_GID). */
class KeyMessageTest {
    /** What ib_write_bw on rxe0 (GID ::ffff:10.9.0.1) sends for QPN 0x11, PSN 0xa1b2c3, rkey 0x1234, one out read. */
    private static final String GOLDEN_WITH_GID = "0000:0001:000011:a1b2c3:00001234:00007f0012345000:"
            + "00:00:00:00:00:00:00:00:00:00:ff:ff:0a:09:00:01:00000000:";
    private static final String GOLDEN_WITHOUT_GID = "0001:0010:000011:a1b2c3:00001234:00007f0012345000:00000000";

    private static byte[] cString(String text, int size) {
        return Arrays.copyOf(text.getBytes(StandardCharsets.US_ASCII), size);
    }

    private static KeyMessage sample(Gid gid, int lid, int outReads) {
        return new KeyMessage(lid, outReads, 0x11, 0xa1b2c3, 0x1234, 0x7f0012345000L, gid, 0);
    }

    @Test
    void encodesTheGidFormByteForByte() {
        byte[] bytes = sample(Gid.parse("::ffff:10.9.0.1"), 0, 1).encode();

        assertEquals(KeyMessage.SIZE_WITH_GID, bytes.length);
        assertEquals(GOLDEN_WITH_GID.length() + 1, bytes.length, "107 characters and the NUL");
        assertArrayEquals(cString(GOLDEN_WITH_GID, 108), bytes);
    }

    @Test
    void decodesTheGidFormAndEncodesItBack() {
        KeyMessage m = KeyMessage.decode(cString(GOLDEN_WITH_GID, 108), true);

        assertEquals(0x11, m.qpn());
        assertEquals(0xa1b2c3, m.psn());
        assertEquals(0x1234, m.rkey());
        assertEquals(0x7f0012345000L, m.vaddr());
        assertEquals(1, m.outReads());
        assertEquals(Gid.parse("::ffff:10.9.0.1"), m.gid());
        assertArrayEquals(cString(GOLDEN_WITH_GID, 108), m.encode());
    }

    @Test
    void encodesAndDecodesTheFormWithoutGid() {
        byte[] bytes = sample(null, 1, 16).encode();

        assertArrayEquals(cString(GOLDEN_WITHOUT_GID, KeyMessage.SIZE_WITHOUT_GID), bytes);
        assertEquals(sample(null, 1, 16), KeyMessage.decode(bytes, false));
    }

    @Test
    void keepsTheHighBitsOfRkeyAndAddress() {
        KeyMessage m = new KeyMessage(0, 128, 0xffffff, 0xffffff, 0xdeadbeef, 0xffff_8000_0000_1000L,
                Gid.parse("fe80::1"), 0);

        assertEquals(m, KeyMessage.decode(m.encode(), true));
    }

    @Test
    void refusesAMessageOfTheWrongSizeOrForm() {
        assertThrows(IllegalArgumentException.class, () -> KeyMessage.decode(new byte[59], true));
        assertThrows(IllegalArgumentException.class, () -> KeyMessage.decode(cString("not:a:key", 108), true));
    }
}
