package dev.verbs4j.replicatedlog;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/**
 * Reads a log file back after a crash. The published tail says how many bytes of records to
 * trust; every record before it must be complete, in sequence and checksum-intact, and
 * nothing after it is looked at (it may be a record written but never published, or torn,
 * or the fill of a fresh file).
 */
public final class LogRecovery {
    /** Sees each trusted record; answers false when it rejects the payload. */
    public interface RecordVisitor {
        boolean visit(long seq, MemorySegment payload);
    }

    private LogRecovery() {
    }

    /** {@link #recover(MemorySegment, RecordVisitor)} without a visitor. */
    public static Recovery recover(MemorySegment file) {
        return recover(file, null);
    }

    /**
     * Walks the records before the published tail.
     *
     * @param visitor sees each record that passed the checks, or null
     */
    public static Recovery recover(MemorySegment file, RecordVisitor visitor) {
        if (file.byteSize() < LogLayout.HEADER_BYTES) {
            return new Recovery(0, 0, "file of " + file.byteSize() + " bytes is shorter than the log header");
        }
        if (file.get(LogLayout.LONG, LogLayout.MAGIC_OFFSET) != LogLayout.MAGIC) {
            return new Recovery(0, 0, "no log header (magic word missing)");
        }
        long tail = LogLayout.readTail(file);
        long capacity = LogLayout.dataCapacity(file.byteSize());
        if (tail < 0 || tail > capacity) {
            return new Recovery(tail, 0, "tail " + tail + " lies beyond the data area of " + capacity + " bytes");
        }
        if ((tail & 7) != 0) {
            return new Recovery(tail, 0, "tail " + tail + " is not on a record boundary (multiple of 8)");
        }
        MemorySegment data = file.asSlice(LogLayout.HEADER_BYTES, tail);
        CRC32C crc = new CRC32C();
        long position = 0;
        long expected = 1;
        while (position < tail) {
            long remaining = tail - position;
            if (remaining < LogLayout.RECORD_HEADER_BYTES) {
                return new Recovery(tail, expected - 1, "torn record header at offset " + position + " before the tail");
            }
            int length = data.get(LogLayout.INT, position);
            if (length < 0 || length > LogLayout.MAX_PAYLOAD || LogLayout.recordBytes(length) > remaining) {
                return new Recovery(tail, expected - 1, "record " + expected + " at offset " + position
                        + ": payload length " + Integer.toUnsignedString(length) + " runs past the tail");
            }
            long seq = data.get(LogLayout.LONG, position + 8);
            if (seq != expected) {
                return new Recovery(tail, expected - 1, "record at offset " + position + " has sequence number "
                        + seq + ", expected " + expected);
            }
            MemorySegment payload = data.asSlice(position + LogLayout.RECORD_HEADER_BYTES, length);
            if (LogLayout.checksum(crc, length, seq, payload) != data.get(LogLayout.INT, position + 4)) {
                return new Recovery(tail, expected - 1, "record " + seq + " at offset " + position + ": checksum mismatch");
            }
            if (visitor != null && !visitor.visit(seq, payload)) {
                return new Recovery(tail, expected - 1, "record " + seq + " at offset " + position
                        + ": intact but not the payload that was appended");
            }
            position += LogLayout.recordBytes(length);
            expected++;
        }
        return new Recovery(tail, expected - 1, null);
    }
}
