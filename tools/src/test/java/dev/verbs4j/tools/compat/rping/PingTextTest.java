package dev.verbs4j.tools.compat.rping;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The text rping's client puts in its buffer (rping_test_client), byte for byte. */
class PingTextTest {
    /** rping's own loop, written out as it is in C. */
    private static byte[] rpingText(int ping, int size) {
        byte[] buf = new byte[size];
        byte[] head = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, buf, 0, head.length);
        int start = 65;
        for (int p = 0; p < ping; p++) {
            start++;
            if (start > 122) {
                start = 65;
            }
        }
        int c = start;
        for (int i = head.length; i < size; i++) {
            buf[i] = (byte) c;
            c++;
            if (c > 122) {
                c = 65;
            }
        }
        buf[size - 1] = 0;
        return buf;
    }

    @Test
    void fillsWhatRpingFills() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(200);
            for (int ping : new int[] {0, 1, 9, 57, 58, 123, 2147483647}) {
                for (int size : new int[] {26, 64, 130}) {
                    PingText.fill(segment, 8, size, ping);
                    byte[] ours = segment.asSlice(8, size).toArray(ValueLayout.JAVA_BYTE);
                    assertEquals(new String(rpingText(ping, size), StandardCharsets.ISO_8859_1),
                            new String(ours, StandardCharsets.ISO_8859_1), "ping " + ping + ", size " + size);
                    assertEquals(-1, PingText.mismatch(segment, 8, size, ping));
                }
            }
        }
    }

    @Test
    void findsTheFirstWrongByte() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(64);
            PingText.fill(segment, 0, 64, 3);
            segment.set(ValueLayout.JAVA_BYTE, 40, (byte) '#');

            assertEquals(40, PingText.mismatch(segment, 0, 64, 3));
            assertEquals(10, PingText.mismatch(segment, 0, 64, 4));
        }
    }
}
