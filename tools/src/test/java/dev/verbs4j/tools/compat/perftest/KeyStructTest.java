package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Gid;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** perftest's {@code struct pingpong_dest} as its -R exchange sends it. */
class KeyStructTest {
    private static final Gid GID = Gid.fromBytes(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 9, 0, 2});

    @Test
    void numbersAreBigEndianAtTheCompilersOffsets() {
        KeyMessage keys = new KeyMessage(0x12, 16, 0x000abc, 0x123456, 0xdeadbeef, 0x00007f0011223344L, GID, 0);

        byte[] bytes = KeyStruct.encode(keys, 1);

        assertEquals(56, bytes.length);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        assertEquals(0x12, b.getInt(0));
        assertEquals(16, b.getInt(4));
        assertEquals(0xabc, b.getInt(8));
        assertEquals(0x123456, b.getInt(12));
        assertEquals(0xdeadbeef, b.getInt(16));
        assertEquals(0, b.getInt(20));
        assertEquals(0x00007f0011223344L, b.getLong(24));
        byte[] gid = new byte[16];
        b.get(32, gid);
        assertArrayEquals(GID.toBytes(), gid);
        assertEquals(1, b.getInt(52));
    }

    @Test
    void decodesWhatTheCProgramSends() {
        ByteBuffer b = ByteBuffer.allocate(56);
        b.putInt(0).putInt(1).putInt(0x11).putInt(0x654321).putInt(0x1234).putInt(0x5a5a5a5a).putLong(0x5555aaaa0000L);
        b.put(GID.toBytes()).putInt(0).putInt(1);

        KeyMessage keys = KeyStruct.decode(b.array());

        assertEquals(new KeyMessage(0, 1, 0x11, 0x654321, 0x1234, 0x5555aaaa0000L, GID, 0), keys);
    }

    @Test
    void refusesAnotherSize() {
        assertThrows(IllegalArgumentException.class, () -> KeyStruct.decode(new byte[55]));
    }
}
