package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Little-endian field access: NVMe structures are little-endian, unlike the IBTA headers. */
public final class Le {
    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Le() {
    }

    public static int u8(MemorySegment s, long offset) {
        return s.get(ValueLayout.JAVA_BYTE, offset) & 0xff;
    }

    public static void u8(MemorySegment s, long offset, int value) {
        s.set(ValueLayout.JAVA_BYTE, offset, (byte) value);
    }

    public static int u16(MemorySegment s, long offset) {
        return s.get(U16, offset) & 0xffff;
    }

    public static void u16(MemorySegment s, long offset, int value) {
        s.set(U16, offset, (short) value);
    }

    /** A 3-byte length, as the keyed SGL data block descriptor carries it. */
    public static int u24(MemorySegment s, long offset) {
        return u8(s, offset) | u8(s, offset + 1) << 8 | u8(s, offset + 2) << 16;
    }

    public static void u24(MemorySegment s, long offset, int value) {
        u8(s, offset, value);
        u8(s, offset + 1, value >>> 8);
        u8(s, offset + 2, value >>> 16);
    }

    public static int u32(MemorySegment s, long offset) {
        return s.get(U32, offset);
    }

    public static void u32(MemorySegment s, long offset, int value) {
        s.set(U32, offset, value);
    }

    public static long u64(MemorySegment s, long offset) {
        return s.get(U64, offset);
    }

    public static void u64(MemorySegment s, long offset, long value) {
        s.set(U64, offset, value);
    }

    /** An ASCII field of {@code width} bytes up to its first NUL (NQNs, serial numbers). */
    public static String ascii(MemorySegment s, long offset, int width) {
        byte[] bytes = s.asSlice(offset, width).toArray(ValueLayout.JAVA_BYTE);
        int end = 0;
        while (end < width && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.US_ASCII);
    }

    /** Writes {@code text} into a field of {@code width} bytes, the rest filled with {@code pad}. */
    public static void ascii(MemorySegment s, long offset, int width, String text, byte pad) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        int n = Math.min(bytes.length, width);
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, offset, n);
        s.asSlice(offset + n, width - n).fill(pad);
    }
}
