package dev.verbs4j.tools.compat.rping;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The bytes rping's client puts in its buffer for ping {@code n}: the text
 * {@code "rdma-ping-n: "}, then letters and signs from 'A' to 'z' over and over, starting one
 * further each ping, and a NUL in the last byte. Written and checked without allocating.
 */
public final class PingText {
    /** rping's smallest size: room for the text with the largest ping number, and its NUL. */
    public static final int MIN_SIZE = 26;
    /** rping's largest size ({@code RPING_BUFSIZE - 1}). */
    public static final int MAX_SIZE = 64 * 1024 - 1;
    private static final byte[] PREFIX = "rdma-ping-".getBytes(StandardCharsets.US_ASCII);
    private static final int FIRST = 'A';
    private static final int LAST = 'z';

    private PingText() {
    }

    /** Fills {@code size} bytes at {@code at} with ping {@code n}'s text. */
    public static void fill(MemorySegment segment, long at, int size, int n) {
        int i = header(segment, at, n, size);
        int c = first(n);
        for (; i < size; i++) {
            segment.set(ValueLayout.JAVA_BYTE, at + i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        segment.set(ValueLayout.JAVA_BYTE, at + size - 1, (byte) 0);
    }

    /** The offset of the first byte at {@code at} that differs from ping {@code n}'s text, or -1. */
    public static long mismatch(MemorySegment segment, long at, int size, int n) {
        int c = first(n);
        int headerLength = headerLength(n);
        for (int i = 0; i < size; i++) {
            int expected;
            if (i == size - 1) {
                expected = 0;
            } else if (i < headerLength) {
                expected = headerByte(n, i);
            } else {
                expected = c;
                c = c == LAST ? FIRST : c + 1;
            }
            if (segment.get(ValueLayout.JAVA_BYTE, at + i) != (byte) expected) {
                return i;
            }
        }
        return -1;
    }

    /** The first letter after the text: 'A' for ping 0, one further each ping, back to 'A' after 'z'. */
    static int first(int n) {
        return FIRST + Integer.remainderUnsigned(n, LAST - FIRST + 1);
    }

    private static int header(MemorySegment segment, long at, int n, int size) {
        int length = Math.min(headerLength(n), size - 1);
        for (int i = 0; i < length; i++) {
            segment.set(ValueLayout.JAVA_BYTE, at + i, (byte) headerByte(n, i));
        }
        return length;
    }

    /** The length of {@code "rdma-ping-n: "}. */
    static int headerLength(int n) {
        return PREFIX.length + digits(n) + 2;
    }

    private static int headerByte(int n, int i) {
        if (i < PREFIX.length) {
            return PREFIX[i];
        }
        int d = i - PREFIX.length;
        int digits = digits(n);
        if (d < digits) {
            int divisor = 1;
            for (int k = d + 1; k < digits; k++) {
                divisor *= 10;
            }
            return '0' + (n / divisor) % 10;
        }
        return d == digits ? ':' : ' ';
    }

    private static int digits(int n) {
        int digits = 1;
        for (int v = n; v >= 10; v /= 10) {
            digits++;
        }
        return digits;
    }
}
