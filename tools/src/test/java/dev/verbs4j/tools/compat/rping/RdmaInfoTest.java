package dev.verbs4j.tools.compat.rping;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** rping's struct rping_rdma_info: buf, rkey, size, in network byte order. */
class RdmaInfoTest {
    @Test
    void isSixteenBigEndianBytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(20);
            RdmaInfo.write(s, 4, 0x0102030405060708L, 0x0a0b0c0d, 64);

            assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 0x0a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 64},
                    s.asSlice(4, 16).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0x0102030405060708L, RdmaInfo.address(s, 4));
            assertEquals(0x0a0b0c0d, RdmaInfo.rkey(s, 4));
            assertEquals(64, RdmaInfo.length(s, 4));
        }
    }
}
