package dev.verbs4j.tools.compat.perftest;

import java.nio.ByteBuffer;

/**
 * A bandwidth test's result as perftest's client hands it to its server at the end
 * ({@code xchg_bw_reports}): five 8-byte big-endian fields, each in an exchange of its own
 * (the iteration count is 8 bytes because both sides are version 5.33 or later; the
 * per-port fields go only with {@code -O}, which is not supported here).
 *
 * @param bwPeak     in MB/s (2^20 bytes) or, with {@code --report_gbits}, Gb/s
 * @param bwAverage  in the same unit
 * @param msgRateMpps millions of messages per second
 */
public record BwReport(long sizeBytes, long iterations, double bwPeak, double bwAverage, double msgRateMpps) {
    /** The fields in the order they are exchanged, 8 bytes each. */
    static final int FIELDS = 5;

    static final BwReport EMPTY = new BwReport(0, 0, 0, 0, 0);

    /** Field {@code index} as it goes on the wire. */
    byte[] field(int index) {
        ByteBuffer b = ByteBuffer.allocate(8);
        switch (index) {
            case 0 -> b.putLong(sizeBytes);
            case 1 -> b.putLong(iterations);
            case 2 -> b.putDouble(bwPeak);
            case 3 -> b.putDouble(bwAverage);
            case 4 -> b.putDouble(msgRateMpps);
            default -> throw new IllegalArgumentException("field " + index);
        }
        return b.array();
    }

    /** The report whose five fields came as {@code fields}. */
    static BwReport of(byte[][] fields) {
        return new BwReport(ByteBuffer.wrap(fields[0]).getLong(), ByteBuffer.wrap(fields[1]).getLong(),
                ByteBuffer.wrap(fields[2]).getDouble(), ByteBuffer.wrap(fields[3]).getDouble(),
                ByteBuffer.wrap(fields[4]).getDouble());
    }
}
