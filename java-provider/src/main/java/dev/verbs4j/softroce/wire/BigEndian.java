package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Network-order (big-endian) loads and stores on a {@link MemorySegment}, used by every
 * header flyweight. The layouts are unaligned because IBTA headers sit at any offset after
 * the UDP header, and static final so the JIT folds them into plain moves plus a byte swap.
 */
public final class BigEndian {
    static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The ICRC is the one field stored least significant byte first (see {@link Icrc}). */
    static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private BigEndian() {
    }

    public static int u8(MemorySegment segment, long offset) {
        return segment.get(U8, offset) & 0xFF;
    }

    public static void u8(MemorySegment segment, long offset, int value) {
        segment.set(U8, offset, (byte) value);
    }

    public static int u16(MemorySegment segment, long offset) {
        return segment.get(U16, offset) & 0xFFFF;
    }

    public static void u16(MemorySegment segment, long offset, int value) {
        segment.set(U16, offset, (short) value);
    }

    public static int i32(MemorySegment segment, long offset) {
        return segment.get(U32, offset);
    }

    public static void i32(MemorySegment segment, long offset, int value) {
        segment.set(U32, offset, value);
    }

    public static long i64(MemorySegment segment, long offset) {
        return segment.get(U64, offset);
    }

    public static void i64(MemorySegment segment, long offset, long value) {
        segment.set(U64, offset, value);
    }

    /** The low 24 bits of the 32-bit word at {@code offset} (QPN, PSN, MSN, source QP). */
    static int u24(MemorySegment segment, long offset) {
        return segment.get(U32, offset) & 0x00FF_FFFF;
    }

    /** Replaces the low 24 bits of the word at {@code offset}, keeping its top byte. */
    static void u24(MemorySegment segment, long offset, int value) {
        int word = segment.get(U32, offset);
        segment.set(U32, offset, (word & 0xFF00_0000) | (value & 0x00FF_FFFF));
    }
}
