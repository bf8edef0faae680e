package dev.verbs4j.tools.compat.rping;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * rping's {@code struct rping_rdma_info}, the one message the two sides send each other: a
 * buffer's address, its rkey and its length, 16 bytes in network byte order. The client
 * sends it to advertise a buffer; the server sends 16 zero bytes as its go-ahead.
 */
public final class RdmaInfo {
    /** The message's size on the wire. */
    public static final int BYTES = 16;
    private static final ValueLayout.OfLong ADDRESS = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private RdmaInfo() {
    }

    /** Writes the message for a buffer at {@code at} in {@code segment}. */
    public static void write(MemorySegment segment, long at, long address, int rkey, int length) {
        segment.set(ADDRESS, at, address);
        segment.set(WORD, at + 8, rkey);
        segment.set(WORD, at + 12, length);
    }

    public static long address(MemorySegment segment, long at) {
        return segment.get(ADDRESS, at);
    }

    public static int rkey(MemorySegment segment, long at) {
        return segment.get(WORD, at + 8);
    }

    /** The advertised length (unsigned on the wire; a negative int here is over 2 GiB). */
    public static int length(MemorySegment segment, long at) {
        return segment.get(WORD, at + 12);
    }
}
