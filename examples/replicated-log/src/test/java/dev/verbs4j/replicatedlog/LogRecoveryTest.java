package dev.verbs4j.replicatedlog;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogRecoveryTest {
    private static final int FILE_BYTES = LogLayout.HEADER_BYTES + 4096;
    private final CRC32C crc = new CRC32C();
    private MemorySegment file;
    /** Where the next record goes, relative to the data area. */
    private long end;

    @BeforeEach
    void freshLog() {
        file = Arena.ofAuto().allocate(FILE_BYTES, 8);
        LogLayout.format(file);
        end = 0;
    }

    /** Writes record {@code seq} after the last one, as the replicator's WRITE does, without publishing it. */
    private long write(long seq, int size) {
        byte[] payload = new byte[size];
        Payloads.fill(payload, seq, size);
        long at = end;
        end += LogLayout.encode(file, LogLayout.HEADER_BYTES + at, seq, payload, size, crc);
        return at;
    }

    private void publish(long tail) {
        file.set(LogLayout.LONG, LogLayout.TAIL_OFFSET, tail);
    }

    @Test
    void aFreshLogIsEmptyAndIntact() {
        Recovery r = LogRecovery.recover(file);
        assertEquals(new Recovery(0, 0, null), r);
        assertEquals(1, r.nextSeq());
    }

    @Test
    void everyPublishedRecordIsRecoveredWithItsPayload() {
        write(1, 64);
        write(2, 0);
        write(3, 13);
        publish(end);
        List<Long> seen = new ArrayList<>();
        Recovery r = LogRecovery.recover(file, (seq, payload) -> {
            seen.add(seq);
            return Payloads.matches(seq, payload, (int) payload.byteSize());
        });
        assertNull(r.problem());
        assertEquals(3, r.records());
        assertEquals(end, r.tail());
        assertEquals(List.of(1L, 2L, 3L), seen);
        assertEquals(0, end % 8, "records end on 8-byte boundaries");
    }

    @Test
    void aRecordWrittenButNotPublishedIsNotTrusted() {
        write(1, 64);
        long tail = end;
        write(2, 64);
        publish(tail);
        Recovery r = LogRecovery.recover(file);
        assertTrue(r.intact());
        assertEquals(1, r.records());
        assertEquals(2, r.nextSeq());
    }

    @Test
    void aTornRecordAfterTheTailIsIgnored() {
        write(1, 64);
        long tail = end;
        long at = write(2, 256);
        // Power went out in the middle of record 2: its second half is the old fill.
        file.asSlice(LogLayout.HEADER_BYTES + at + 100, 100).fill(LogLayout.FILL);
        publish(tail);
        assertEquals(new Recovery(tail, 1, null), LogRecovery.recover(file));
    }

    @Test
    void aTornRecordBeforeTheTailIsReported() {
        write(1, 64);
        long at = write(2, 256);
        publish(end);
        file.asSlice(LogLayout.HEADER_BYTES + at + 100, 100).fill(LogLayout.FILL);
        Recovery r = LogRecovery.recover(file);
        assertFalse(r.intact());
        assertEquals(1, r.records(), "the records before the damage still count");
        assertTrue(r.problem().contains("checksum"), r.problem());
    }

    @Test
    void aFlippedBitInThePayloadIsACheckumMismatch() {
        long at = write(1, 64);
        publish(end);
        long where = LogLayout.HEADER_BYTES + at + LogLayout.RECORD_HEADER_BYTES + 10;
        file.set(ValueLayout.JAVA_BYTE, where, (byte) (file.get(ValueLayout.JAVA_BYTE, where) ^ 4));
        Recovery r = LogRecovery.recover(file);
        assertEquals(0, r.records());
        assertTrue(r.problem().contains("record 1") && r.problem().contains("checksum"), r.problem());
    }

    @Test
    void aDamagedChecksumFieldIsAMismatchToo() {
        long at = write(1, 8);
        publish(end);
        file.set(LogLayout.INT, LogLayout.HEADER_BYTES + at + 4, 0x12345678);
        assertTrue(LogRecovery.recover(file).problem().contains("checksum"));
    }

    @Test
    void aTailBeyondTheDataAreaIsReported() {
        write(1, 64);
        publish(FILE_BYTES);
        Recovery r = LogRecovery.recover(file);
        assertFalse(r.intact());
        assertTrue(r.problem().contains("beyond the data area"), r.problem());
        publish(-8);
        assertTrue(LogRecovery.recover(file).problem().contains("beyond the data area"));
    }

    @Test
    void aTailPastTheWrittenRecordsMeetsTheFill() {
        write(1, 64);
        publish(end + 96);
        Recovery r = LogRecovery.recover(file);
        assertEquals(1, r.records());
        assertTrue(r.problem().contains("record 2"), r.problem());
    }

    @Test
    void aTailInsideARecordIsReported() {
        write(1, 64);
        long first = end;
        write(2, 64);
        publish(first + 40);
        Recovery r = LogRecovery.recover(file);
        assertEquals(1, r.records());
        assertTrue(r.problem().contains("runs past the tail"), r.problem());
        publish(first + 8);
        assertTrue(LogRecovery.recover(file).problem().contains("torn record header"));
        publish(first + 3);
        assertTrue(LogRecovery.recover(file).problem().contains("record boundary"));
    }

    @Test
    void aRecordOutOfSequenceIsReported() {
        write(1, 16);
        write(3, 16);
        publish(end);
        Recovery r = LogRecovery.recover(file);
        assertEquals(1, r.records());
        assertTrue(r.problem().contains("sequence number 3, expected 2"), r.problem());
    }

    @Test
    void aFileWithoutTheHeaderIsNoLog() {
        file.set(LogLayout.LONG, LogLayout.MAGIC_OFFSET, 0);
        assertTrue(LogRecovery.recover(file).problem().contains("magic"));
        assertTrue(LogRecovery.recover(file.asSlice(0, 100)).problem().contains("shorter"));
    }

    @Test
    void anIntactRecordWithAnotherPayloadIsRejectedByTheVisitor() {
        byte[] other = new byte[32];
        end += LogLayout.encode(file, LogLayout.HEADER_BYTES, 1, other, 32, crc);
        publish(end);
        Recovery r = LogRecovery.recover(file, (seq, payload) -> Payloads.matches(seq, payload, 32));
        assertEquals(0, r.records());
        assertTrue(r.problem().contains("not the payload"), r.problem());
    }

    @Test
    void theTailWordLandsLittleEndianWhateverTheNativeOrder() {
        MemorySegment word = Arena.ofAuto().allocate(8);
        word.set(ValueLayout.JAVA_LONG, 0, LogLayout.tailWord(0x0102030405060708L));
        assertEquals(0x0102030405060708L, word.get(LogLayout.LONG, 0));
    }

    @Test
    void encodingRejectsAPayloadLongerThanItsArray() {
        assertEquals(IllegalArgumentException.class, org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> LogLayout.encode(file, LogLayout.HEADER_BYTES, 1, new byte[4], 5, crc)).getClass());
    }
}
