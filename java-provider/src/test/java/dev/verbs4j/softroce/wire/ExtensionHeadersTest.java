package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Byte layouts of the extension header flyweights, written at an odd offset to catch alignment slips. */
class ExtensionHeadersTest {
    private static final int AT = 5;
    private final MemorySegment buffer = MemorySegment.ofArray(new byte[AT + 28 + 3]);

    @Test
    void rethIsAddressKeyLengthBigEndian() {
        Reth reth = new Reth().wrap(buffer, AT).init(0x0102030405060708L, 0x0A0B0C0D, 0xF0000010);
        assertEquals("0102030405060708" + "0a0b0c0d" + "f0000010", hex(Reth.LENGTH));
        assertEquals(0x0102030405060708L, reth.va());
        assertEquals(0x0A0B0C0D, reth.rkey());
        assertEquals(0xF0000010L, Integer.toUnsignedLong(reth.dmaLength()));
    }

    @Test
    void aethPacksSyndromeAboveTheMsn() {
        Aeth aeth = new Aeth().wrap(buffer, AT).init(Aeth.NAK_REMOTE_ACCESS_ERROR, 0x0ABCDE);
        assertEquals("620abcde", hex(Aeth.LENGTH));
        aeth.msn(0x1FFFFFF);
        assertEquals("62ffffff", hex(Aeth.LENGTH));
        aeth.syndrome(Aeth.rnrNakSyndrome(14));
        assertEquals("2effffff", hex(Aeth.LENGTH));
        assertEquals(0x2E, aeth.syndrome());
        assertEquals(0xFFFFFF, aeth.msn());
    }

    @Test
    void aethSyndromeHelpersClassifyEveryType() {
        assertEquals(0x1F, Aeth.ACK_UNLIMITED_CREDIT);
        assertEquals(0x05, Aeth.ackSyndrome(5));
        assertEquals(0x3F, Aeth.rnrNakSyndrome(0x1F));
        assertEquals(0x60, Aeth.NAK_PSN_SEQUENCE_ERROR);
        assertEquals(0x61, Aeth.NAK_INVALID_REQUEST);
        assertEquals(0x62, Aeth.NAK_REMOTE_ACCESS_ERROR);
        assertEquals(0x63, Aeth.NAK_REMOTE_OPERATIONAL_ERROR);
        assertEquals(0x64, Aeth.NAK_INVALID_RD_REQUEST);
        assertEquals(Aeth.NAK_INVALID_REQUEST, Aeth.nakSyndrome(1));
        for (int syndrome = 0; syndrome < 256; syndrome++) {
            int kinds = (Aeth.isAck(syndrome) ? 1 : 0) + (Aeth.isRnrNak(syndrome) ? 1 : 0) + (Aeth.isNak(syndrome) ? 1 : 0);
            boolean reserved = (syndrome & 0x80) != 0 || (syndrome & 0x60) == Aeth.TYPE_RESERVED;
            assertEquals(reserved ? 0 : 1, kinds, "syndrome " + syndrome);
        }
        assertEquals(14, Aeth.value(Aeth.rnrNakSyndrome(14)));
        assertEquals(2, Aeth.value(Aeth.NAK_REMOTE_ACCESS_ERROR));
    }

    @Test
    void atomicEthIsPackedWithUnalignedOperands() {
        AtomicEth a = new AtomicEth().wrap(buffer, AT)
                .init(0x1000000000000008L, 0x11223344, 0x5555666677778888L, 0x99AABBCCDDEEFF00L);
        assertEquals("1000000000000008" + "11223344" + "5555666677778888" + "99aabbccddeeff00", hex(AtomicEth.LENGTH));
        assertEquals(0x5555666677778888L, a.swapOrAdd());
        assertEquals(0x99AABBCCDDEEFF00L, a.compare());
        assertEquals(0x11223344, a.rkey());
        assertEquals(0x1000000000000008L, a.va());
    }

    @Test
    void atomicAckEthHoldsTheOriginalValue() {
        AtomicAckEth a = new AtomicAckEth().wrap(buffer, AT).originalValue(0x8877665544332211L);
        assertEquals("8877665544332211", hex(AtomicAckEth.LENGTH));
        assertEquals(0x8877665544332211L, a.originalValue());
    }

    @Test
    void immDtIeth() {
        assertEquals(0xCAFEF00D, new ImmDt().wrap(buffer, AT).immData(0xCAFEF00D).immData());
        assertEquals("cafef00d", hex(ImmDt.LENGTH));
        assertEquals(0x00C0FFEE, new Ieth().wrap(buffer, AT).rkey(0x00C0FFEE).rkey());
        assertEquals("00c0ffee", hex(Ieth.LENGTH));
    }

    @Test
    void dethKeepsTheReservedByteOutOfTheSourceQp() {
        Deth deth = new Deth().wrap(buffer, AT).init(0x80010000, 0x7F123456);
        assertEquals("80010000" + "00123456", hex(Deth.LENGTH));
        buffer.set(ValueLayout.JAVA_BYTE, AT + 4, (byte) 0xAB);
        assertEquals(0x123456, deth.srcQp());
        deth.srcQp(1);
        assertEquals("80010000" + "ab000001", hex(Deth.LENGTH));
        assertEquals(0x80010000, deth.qkey());
    }

    @Test
    void fethUsesTheRxeBitPositions() {
        Feth feth = new Feth().wrap(buffer, AT).init(Feth.PLACEMENT_PERSISTENT, Feth.SELECTIVITY_MEMORY_REGION);
        assertEquals("00000012", hex(Feth.LENGTH));
        assertEquals(Feth.PLACEMENT_PERSISTENT, feth.placementType());
        assertEquals(Feth.SELECTIVITY_MEMORY_REGION, feth.selectivityLevel());
        buffer.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), AT, 0xFFFFFFC0);
        assertEquals(0, feth.placementType());
        assertEquals(0, feth.selectivityLevel());
        feth.placementType(0xF1).selectivityLevel(0x7);
        assertEquals("fffffff1", hex(Feth.LENGTH));
        assertEquals(1, feth.placementType());
        assertEquals(3, feth.selectivityLevel());
    }

    @Test
    void flyweightsDoNotTouchBytesOutsideTheirHeader() {
        buffer.fill((byte) 0x77);
        new AtomicEth().wrap(buffer, AT).init(0, 0, 0, 0);
        byte[] bytes = buffer.toArray(ValueLayout.JAVA_BYTE);
        for (int i = 0; i < bytes.length; i++) {
            boolean inside = i >= AT && i < AT + AtomicEth.LENGTH;
            assertEquals(inside ? 0 : 0x77, bytes[i] & 0xFF, "byte " + i);
        }
    }

    private String hex(int length) {
        return HexFormat.of().formatHex(buffer.asSlice(AT, length).toArray(ValueLayout.JAVA_BYTE));
    }
}
