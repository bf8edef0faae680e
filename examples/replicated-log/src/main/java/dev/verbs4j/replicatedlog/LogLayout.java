package dev.verbs4j.replicatedlog;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The log file: a 4 KiB header, then the records, back to back.
 * <pre>
 * header   0  u64 tail   bytes of records that are published (the rest is not trusted)
 *          8  u64 magic  "v4jlog01"
 * record   0  u32 length of the payload
 *          4  u32 CRC32C of the length, the sequence number and the payload
 *          8  u64 sequence number, 1 for the first record, then one more each
 *         16  payload, then zeros up to the next multiple of 8
 * </pre>
 * Everything is little-endian. The tail is written with ATOMIC WRITE, which stores the 8
 * bytes in the responder's native order: {@link #tailWord} gives the value to post so that
 * the little-endian word lands.
 */
public final class LogLayout {
    /** Bytes before the first record. */
    public static final int HEADER_BYTES = 4096;
    /** Where the tail word is. */
    public static final int TAIL_OFFSET = 0;
    /** Where the magic word is. */
    public static final int MAGIC_OFFSET = 8;
    /** "v4jlog01" read as a little-endian word. */
    public static final long MAGIC = 0x3130676f6c6a3476L;
    /** The record header's size. */
    public static final int RECORD_HEADER_BYTES = 16;
    /** The largest payload a record carries. */
    public static final int MAX_PAYLOAD = 1 << 20;
    /** What the data area holds before anything is written: not zero, so file images stay fully allocated. */
    public static final byte FILL = (byte) 0xa5;

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LogLayout() {
    }

    /** The bytes a record with {@code payloadLength} bytes of payload takes, padding included. */
    public static int recordBytes(int payloadLength) {
        return (RECORD_HEADER_BYTES + payloadLength + 7) & ~7;
    }

    /** The bytes available for records in a file of {@code fileBytes}. */
    public static long dataCapacity(long fileBytes) {
        return fileBytes - HEADER_BYTES;
    }

    /** Writes an empty log over all of {@code file}: tail 0, the magic, the data area filled with {@link #FILL}. */
    public static void format(MemorySegment file) {
        if (file.byteSize() < HEADER_BYTES + RECORD_HEADER_BYTES) {
            throw new IllegalArgumentException("a log file needs at least " + (HEADER_BYTES + RECORD_HEADER_BYTES) + " bytes");
        }
        file.asSlice(0, HEADER_BYTES).fill((byte) 0);
        file.set(LONG, TAIL_OFFSET, 0);
        file.set(LONG, MAGIC_OFFSET, MAGIC);
        file.asSlice(HEADER_BYTES).fill(FILL);
    }

    /** The published tail as stored. */
    public static long readTail(MemorySegment file) {
        return file.get(LONG, TAIL_OFFSET);
    }

    /** The value to post with ATOMIC WRITE so that {@code tail} lands as a little-endian word. */
    public static long tailWord(long tail) {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? tail : Long.reverseBytes(tail);
    }

    /**
     * Encodes a record at {@code offset} of {@code dst}: header, the first {@code length}
     * bytes of {@code payload}, zero padding. Allocates nothing.
     *
     * @return the record's size, {@link #recordBytes}({@code length})
     */
    public static int encode(MemorySegment dst, long offset, long seq, byte[] payload, int length, CRC32C crc) {
        if (length < 0 || length > MAX_PAYLOAD || length > payload.length) {
            throw new IllegalArgumentException("payload length " + length + " outside 0.." + Math.min(MAX_PAYLOAD, payload.length));
        }
        crc.reset();
        updateHeader(crc, length, seq);
        crc.update(payload, 0, length);
        int bytes = recordBytes(length);
        dst.set(INT, offset, length);
        dst.set(INT, offset + 4, (int) crc.getValue());
        dst.set(LONG, offset + 8, seq);
        MemorySegment.copy(payload, 0, dst, ValueLayout.JAVA_BYTE, offset + RECORD_HEADER_BYTES, length);
        dst.asSlice(offset + RECORD_HEADER_BYTES + length, bytes - RECORD_HEADER_BYTES - length).fill((byte) 0);
        return bytes;
    }

    /** The CRC32C a record with this length, sequence number and payload must carry. */
    static int checksum(CRC32C crc, int length, long seq, MemorySegment payload) {
        crc.reset();
        updateHeader(crc, length, seq);
        crc.update(payload.asByteBuffer());
        return (int) crc.getValue();
    }

    private static void updateHeader(CRC32C crc, int length, long seq) {
        for (int i = 0; i < 4; i++) {
            crc.update(length >>> (8 * i));
        }
        for (int i = 0; i < 8; i++) {
            crc.update((int) (seq >>> (8 * i)));
        }
    }
}
