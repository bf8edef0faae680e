package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketBuilderTest {
    private static final UdpFlow FLOW = new UdpFlow().setIpv4(0x0A000001, 0xC000, 0x0A000002, UdpFlow.ROCE_V2_PORT);
    private final MemorySegment buffer = Arena.ofAuto().allocate(128);
    private final PacketBuilder builder = new PacketBuilder();

    @Test
    void startZeroesTheHeadersAndWritesTheOpcode() {
        buffer.fill((byte) 0xAA);
        builder.start(buffer, 4, Opcodes.RC_FLUSH);
        assertEquals(32, builder.headerLength());
        assertEquals(36, builder.payloadOffset());
        assertEquals(Opcodes.RC_FLUSH, buffer.get(ValueLayout.JAVA_BYTE, 4));
        for (int i = 5; i < 36; i++) {
            assertEquals(0, buffer.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
        assertEquals((byte) 0xAA, buffer.get(ValueLayout.JAVA_BYTE, 36));
        assertEquals(4 + 12, builder.feth().offset());
        assertEquals(4 + 16, builder.reth().offset());
    }

    @Test
    void layoutPadsThePayloadToFourBytesWithZeros() {
        for (int payload = 0; payload <= 8; payload++) {
            buffer.fill((byte) 0xAA);
            builder.start(buffer, 0, Opcodes.UD_SEND_ONLY);
            int length = builder.layout(payload);
            int pad = (4 - payload % 4) % 4;
            assertEquals(12 + 8 + payload + pad + 4, length, "payload " + payload);
            assertEquals(pad, builder.bth().padCount());
            for (int i = 0; i < pad; i++) {
                assertEquals(0, buffer.get(ValueLayout.JAVA_BYTE, 20 + payload + i));
            }
        }
    }

    @Test
    void finishLeavesAPacketThatPassesValidationAndIcrcCheck() {
        Icrc icrc = new Icrc();
        builder.start(buffer, 0, Opcodes.RC_ATOMIC_WRITE);
        builder.bth().init(Opcodes.RC_ATOMIC_WRITE, false, false, 0, Bth.DEFAULT_PKEY, 0x10, true, 5);
        builder.reth().init(0x8000, 0x99, 8);
        buffer.set(BigEndian.U64, builder.payloadOffset(), 0x0102030405060708L);
        int length = builder.finish(8, icrc, FLOW, 0);
        assertEquals(12 + 16 + 8 + 4, length);
        PacketView view = new PacketView();
        assertTrue(view.wrap(buffer, 0, length));
        assertTrue(view.checkIcrc(icrc, FLOW));
        assertEquals(8, view.payloadLength());
        assertEquals(0x99, view.reth().rkey());
    }

    @Test
    void payloadOnAnOpcodeWithoutPayloadIsRejected() {
        builder.start(buffer, 0, Opcodes.RC_ACKNOWLEDGE);
        assertThrows(IllegalArgumentException.class, () -> builder.layout(4));
        assertThrows(IllegalArgumentException.class, () -> builder.start(buffer, 0, Opcodes.RC_SEND_ONLY).layout(-1));
    }

    @Test
    void unknownOpcodeCannotBeStarted() {
        assertThrows(IllegalArgumentException.class, () -> builder.start(buffer, 0, 0x15));
        assertThrows(IllegalArgumentException.class, () -> builder.start(buffer, 0, 0x104));
    }

    @Test
    void headerAccessorsFollowTheOpcode() {
        builder.start(buffer, 0, Opcodes.RC_SEND_ONLY);
        assertThrows(IllegalStateException.class, builder::reth);
        assertThrows(IllegalStateException.class, builder::immDt);
        builder.start(buffer, 0, Opcodes.UD_SEND_ONLY_WITH_IMM);
        assertEquals(12, builder.deth().offset());
        assertEquals(20, builder.immDt().offset());
    }
}
