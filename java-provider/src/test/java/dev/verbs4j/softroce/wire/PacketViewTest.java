package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketViewTest {
    private static final UdpFlow FLOW = new UdpFlow().setIpv4(0x0A000001, 0xC000, 0x0A000002, UdpFlow.ROCE_V2_PORT);
    private final MemorySegment buffer = Arena.ofAuto().allocate(256);
    private final PacketView view = new PacketView();
    private final PacketBuilder builder = new PacketBuilder();
    private final Icrc icrc = new Icrc();

    @Test
    void wellFormedPacketExposesHeadersPayloadAndIcrc() {
        builder.start(buffer, 8, Opcodes.RC_RDMA_WRITE_ONLY_WITH_IMM);
        builder.bth().init(Opcodes.RC_RDMA_WRITE_ONLY_WITH_IMM, true, false, 0, Bth.DEFAULT_PKEY, 0x11, true, 0x22);
        builder.reth().init(0x1000, 0x33, 5);
        builder.immDt().immData(0x44);
        int length = builder.finish(5, icrc, FLOW, 0);

        assertTrue(view.wrap(buffer, 8, length));
        assertNull(view.dropReason());
        assertEquals(Opcodes.RC_RDMA_WRITE_ONLY_WITH_IMM, view.opcode());
        assertTrue(view.has(OpcodeTable.REQUEST | OpcodeTable.WRITE | OpcodeTable.ONLY | OpcodeTable.IMMEDIATE));
        assertEquals(32, view.headerLength());
        assertEquals(8 + 32, view.payloadOffset());
        assertEquals(5, view.payloadLength());
        assertEquals(8 + length - 4, view.icrcOffset());
        assertEquals(0x1000, view.reth().va());
        assertEquals(8 + 12, view.reth().offset());
        assertEquals(8 + 28, view.immDt().offset());
        assertEquals(0x44, view.immDt().immData());
        assertTrue(view.checkIcrc(icrc, FLOW));
        assertEquals(0, view.ipv4Id());
    }

    @Test
    void packetShorterThanBthAndIcrcIsTooShort() {
        assertFalse(view.wrap(buffer, 0, 15));
        assertEquals(DropReason.TOO_SHORT, view.dropReason());
        assertEquals(0, view.flags());
    }

    @Test
    void packetShorterThanItsOpcodesHeadersIsTooShort() {
        buffer.set(ValueLayout.JAVA_BYTE, 0, (byte) Opcodes.RC_COMPARE_SWAP); // needs 12 + 28 + 4 bytes
        assertFalse(view.wrap(buffer, 0, 43));
        assertEquals(DropReason.TOO_SHORT, view.dropReason());
        buffer.set(ValueLayout.JAVA_BYTE, 0, (byte) Opcodes.RC_ACKNOWLEDGE);
        assertTrue(view.wrap(buffer, 0, 20));
    }

    @Test
    void reservedOpcodeIsUnknown() {
        for (int opcode : new int[] {0x15, 0x40, 0x81, 0xBC}) {
            buffer.fill((byte) 0);
            buffer.set(ValueLayout.JAVA_BYTE, 0, (byte) opcode);
            assertFalse(view.wrap(buffer, 0, 64), Integer.toHexString(opcode));
            assertEquals(DropReason.UNKNOWN_OPCODE, view.dropReason());
        }
    }

    @Test
    void nonZeroTransportVersionIsDropped() {
        builder.start(buffer, 0, Opcodes.RC_SEND_ONLY);
        int length = builder.layout(4);
        builder.bth().tver(1);
        assertFalse(view.wrap(buffer, 0, length));
        assertEquals(DropReason.BAD_TVER, view.dropReason());
    }

    @Test
    void padCountLargerThanTheBytesAfterTheHeadersIsBadPad() {
        builder.start(buffer, 0, Opcodes.RC_SEND_ONLY);
        int length = builder.layout(0); // 16 bytes, nothing to pad
        builder.bth().padCount(2);
        assertFalse(view.wrap(buffer, 0, length));
        assertEquals(DropReason.BAD_PAD, view.dropReason());
    }

    @Test
    void payloadNotPaddedToFourBytesIsBadPad() {
        builder.start(buffer, 0, Opcodes.RC_SEND_ONLY);
        int length = builder.layout(5); // 5 payload + 3 pad
        assertTrue(view.wrap(buffer, 0, length));
        assertEquals(5, view.payloadLength());
        assertFalse(view.wrap(buffer, 0, length - 1));
        assertEquals(DropReason.BAD_PAD, view.dropReason());
    }

    @Test
    void opcodeWithoutPayloadFollowedByBytesIsBadLength() {
        builder.start(buffer, 0, Opcodes.RC_RDMA_READ_REQUEST);
        int length = builder.layout(0);
        assertTrue(view.wrap(buffer, 0, length));
        assertEquals(0, view.payloadLength());
        assertFalse(view.wrap(buffer, 0, length + 4));
        assertEquals(DropReason.BAD_LENGTH, view.dropReason());
        builder.bth().padCount(1);
        assertFalse(view.wrap(buffer, 0, length));
        assertEquals(DropReason.BAD_PAD, view.dropReason());
    }

    @Test
    void corruptedIcrcIsDroppedWithReasonIcrc() {
        builder.start(buffer, 0, Opcodes.RC_SEND_ONLY);
        int length = builder.finish(8, icrc, FLOW, 0);
        buffer.set(ValueLayout.JAVA_BYTE, 13, (byte) 0x01);
        assertTrue(view.wrap(buffer, 0, length));
        assertFalse(view.checkIcrc(icrc, FLOW));
        assertEquals(DropReason.ICRC, view.dropReason());
    }

    @Test
    void foreignIpv4PacketReportsItsRecoveredIdentification() {
        builder.start(buffer, 0, Opcodes.RC_ACKNOWLEDGE);
        builder.aeth().init(Aeth.ACK_UNLIMITED_CREDIT, 7);
        int length = builder.finish(0, icrc, FLOW, 0x5EED);
        assertTrue(view.wrap(buffer, 0, length));
        assertTrue(view.checkIcrc(icrc, FLOW));
        assertEquals(0x5EED, view.ipv4Id());
    }

    @Test
    void askingForAHeaderTheOpcodeLacksIsAProgrammingError() {
        builder.start(buffer, 0, Opcodes.RC_SEND_ONLY);
        assertTrue(view.wrap(buffer, 0, builder.layout(0)));
        IllegalStateException e = assertThrows(IllegalStateException.class, view::reth);
        assertTrue(e.getMessage().contains("RC SEND ONLY"));
        assertThrows(IllegalStateException.class, view::aeth);
        assertThrows(IllegalStateException.class, view::deth);
        assertThrows(IllegalStateException.class, view::feth);
    }

    @Test
    void afterAFailedWrapNoHeaderIsAvailable() {
        builder.start(buffer, 0, Opcodes.RC_RDMA_READ_REQUEST);
        int length = builder.layout(0);
        assertTrue(view.wrap(buffer, 0, length));
        assertFalse(view.wrap(buffer, 0, 15));
        assertThrows(IllegalStateException.class, view::reth);
    }

    @Test
    void rangeOutsideTheSegmentIsACallerBug() {
        assertThrows(IndexOutOfBoundsException.class, () -> view.wrap(buffer, 250, 16));
    }

    @Test
    void randomBytesNeverThrow() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(12);
        byte[] bytes = new byte[80];
        MemorySegment segment = MemorySegment.ofArray(bytes);
        int accepted = 0;
        int icrcPassed = 0;
        for (int n = 0; n < 20_000; n++) {
            random.nextBytes(bytes);
            bytes[1] &= (byte) 0xF0; // TVer 0, so more samples get past the first checks
            int length = random.nextInt(81);
            if (view.wrap(segment, 0, length)) {
                accepted++;
                assertTrue(view.payloadLength() >= 0);
                assertTrue(view.payloadOffset() + view.payloadLength() <= length - 4);
                icrcPassed += view.checkIcrc(icrc, FLOW) ? 1 : 0;
            }
        }
        assertTrue(accepted > 100, "some random packets must be well formed, got " + accepted);
        assertTrue(icrcPassed <= 1, "random ICRCs pass an IPv4 check with probability 2^-16, got " + icrcPassed);
    }
}
