package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decodes, re-encodes and checks the golden packets produced by an independent implementation
 * (scapy.contrib.roce and a Python rendering of the rxe ICRC rule).
 */
class GoldenPacketTest {

    static List<GoldenPackets.Packet> packets() {
        return GoldenPackets.all();
    }

    @Test
    void goldenFileCoversEveryHeaderTypeOnBothIpVersions() {
        for (int version : new int[] {4, 6}) {
            int seen = 0;
            int nonZeroIds = 0;
            PacketView view = new PacketView();
            for (GoldenPackets.Packet p : packets()) {
                if (p.ipVersion() != version) {
                    continue;
                }
                assertTrue(view.wrap(p.udpPayload(), 0, p.udpPayloadLength()), p.name());
                seen |= view.flags();
                nonZeroIds += p.ipv4Id() != 0 ? 1 : 0;
            }
            int headers = OpcodeTable.HAS_RETH | OpcodeTable.HAS_AETH | OpcodeTable.HAS_ATOMIC_ETH
                    | OpcodeTable.HAS_ATOMIC_ACK_ETH | OpcodeTable.HAS_IMM_DT | OpcodeTable.HAS_IETH
                    | OpcodeTable.HAS_DETH | OpcodeTable.HAS_FETH | OpcodeTable.FLUSH | OpcodeTable.ATOMIC_WRITE;
            assertEquals(headers, seen & headers, "IPv" + version);
            if (version == 4) {
                assertTrue(nonZeroIds >= 3, "IPv4 packets with a non-zero Identification");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packets")
    void goldenPacketIsAcceptedWithItsIpv4Identification(GoldenPackets.Packet p) {
        PacketView view = new PacketView();
        assertTrue(view.wrap(p.udpPayload(), 0, p.udpPayloadLength()), () -> "dropped: " + view.dropReason());
        assertTrue(view.checkIcrc(new Icrc(), p.flow()), () -> "dropped: " + view.dropReason());
        assertEquals(p.ipv4Id(), view.ipv4Id());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packets")
    void computedIcrcEqualsTheGoldenIcrc(GoldenPackets.Packet p) {
        MemorySegment packet = p.udpPayload();
        int length = p.udpPayloadLength();
        int golden = packet.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), length - 4);
        assertEquals(Integer.toHexString(golden),
                Integer.toHexString(new Icrc().compute(p.flow(), p.ipv4Id(), packet, 0, length)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packets")
    void reencodingTheDecodedFieldsReproducesEveryByte(GoldenPackets.Packet p) {
        PacketView view = new PacketView();
        MemorySegment in = p.udpPayload();
        assertTrue(view.wrap(in, 0, p.udpPayloadLength()));
        MemorySegment out = Arena.ofAuto().allocate(p.udpPayloadLength() + 16);
        out.fill((byte) 0x5A); // garbage the builder must overwrite
        int length = reencode(view, out, 16, p.flow(), p.ipv4Id());
        assertEquals(p.udpPayloadLength(), length);
        assertEquals(hex(in, 0, length), hex(out, 16, length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packets")
    void synthesizedIpAndUdpHeadersEqualTheGoldenOnes(GoldenPackets.Packet p) {
        MemorySegment datagram = Arena.ofAuto().allocate(p.datagram().length);
        MemorySegment.copy(MemorySegment.ofArray(p.udpPayload().toArray(ValueLayout.JAVA_BYTE)), 0,
                datagram, p.udpPayloadOffset(), p.udpPayloadLength());
        int written = IpUdpHeaders.write(datagram, 0, p.flow(), p.udpPayloadLength(), p.ipv4Id(), 0, 64);
        assertEquals(p.udpPayloadOffset(), written);
        if (p.ipVersion() == 6) {
            IpUdpHeaders.fillUdpChecksum(datagram, 0);
        }
        assertEquals(HexFormat.of().formatHex(p.datagram()), hex(datagram, 0, p.datagram().length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packets")
    void everySingleBitFlipOutsideTheMaskedBthByteIsRejected(GoldenPackets.Packet p) {
        Icrc icrc = new Icrc();
        UdpFlow flow = p.flow();
        MemorySegment packet = p.udpPayload();
        int length = p.udpPayloadLength();
        for (int bit = 0; bit < length * 8; bit++) {
            long at = bit / 8;
            if (at == Bth.RESV8A_OFFSET) {
                continue; // masked by the ICRC: see invariantFieldsDoNotChangeTheIcrc
            }
            flip(packet, bit);
            int result = icrc.check(flow, packet, 0, length);
            flip(packet, bit);
            assertEquals(Icrc.MISMATCH, result, "bit " + bit + " flipped, check returned " + result);
        }
        assertEquals(p.ipv4Id(), icrc.check(flow, packet, 0, length), "restored packet");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packets")
    void invariantFieldsDoNotChangeTheIcrc(GoldenPackets.Packet p) {
        Icrc icrc = new Icrc();
        MemorySegment packet = p.udpPayload();
        for (int value : new int[] {0x00, 0x80, 0x40, 0x3F, 0xFF}) {
            packet.set(ValueLayout.JAVA_BYTE, Bth.RESV8A_OFFSET, (byte) value);
            assertEquals(p.ipv4Id(), icrc.check(p.flow(), packet, 0, p.udpPayloadLength()), "resv8a " + value);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packets")
    void anotherAddressOrPortFailsTheCheck(GoldenPackets.Packet p) {
        Icrc icrc = new Icrc();
        MemorySegment packet = p.udpPayload();
        int length = p.udpPayloadLength();
        byte[] other = p.destination().getAddress();
        other[other.length - 1] ^= 1;
        UdpFlow wrongDestination = new UdpFlow().set(p.source().getAddress(), p.sourcePort(), other, p.destinationPort());
        UdpFlow wrongPort = new UdpFlow().set(p.source(), p.sourcePort() ^ 0x100, p.destination(), p.destinationPort());
        UdpFlow reversed = new UdpFlow().setReverseOf(p.flow());
        assertEquals(Icrc.MISMATCH, icrc.check(wrongDestination, packet, 0, length));
        assertEquals(Icrc.MISMATCH, icrc.check(wrongPort, packet, 0, length));
        assertEquals(Icrc.MISMATCH, icrc.check(reversed, packet, 0, length));
    }

    @Test
    void decodedFieldsAreTheOnesTheGeneratorWrote() {
        PacketView v = new PacketView();

        wrap(v, "rc_send_only_v4");
        assertEquals(Opcodes.RC_SEND_ONLY, v.opcode());
        assertTrue(v.bth().solicited() && v.bth().ackReq());
        assertEquals(0x10, v.bth().psn());
        assertEquals(0x11, v.bth().destQp());
        assertEquals(0xFFFF, v.bth().pkey());
        assertEquals(1, v.bth().padCount());
        assertEquals("hello, rxe!", ascii(v));

        wrap(v, "rc_rdma_write_first_v6");
        assertEquals(0xFFFFFF, v.bth().psn());
        assertEquals(0x00007F0012345000L, v.reth().va());
        assertEquals(0x00ABCDEF, v.reth().rkey());
        assertEquals(4096, v.reth().dmaLength());
        assertEquals(64, v.payloadLength());

        wrap(v, "rc_acknowledge_v4");
        assertTrue(v.bth().becn() && !v.bth().fecn());
        assertEquals(Aeth.ACK_UNLIMITED_CREDIT, v.aeth().syndrome());
        assertEquals(1, v.aeth().msn());

        wrap(v, "rc_nak_remote_access_v6");
        assertTrue(Aeth.isNak(v.aeth().syndrome()));
        assertEquals(Aeth.NAK_REMOTE_ACCESS_ERROR, v.aeth().syndrome());
        assertEquals(7, v.aeth().msn());

        wrap(v, "rc_compare_swap_v4");
        assertEquals(0x2000, v.atomicEth().va());
        assertEquals(0xCAFE, v.atomicEth().rkey());
        assertEquals(0x1111222233334444L, v.atomicEth().swapOrAdd());
        assertEquals(0x5555666677778888L, v.atomicEth().compare());

        wrap(v, "rc_atomic_acknowledge_v6");
        assertEquals(9, v.aeth().msn());
        assertEquals(0x0123456789ABCDEFL, v.atomicAckEth().originalValue());

        wrap(v, "rc_send_only_with_inv_v4");
        assertEquals(0x1234, v.ieth().rkey());
        assertEquals("inv", ascii(v));

        wrap(v, "rc_rdma_write_only_with_imm_v6");
        assertTrue(v.bth().fecn());
        assertEquals(0xDEADBEEF, v.immDt().immData());
        assertEquals(5, v.reth().dmaLength());
        assertEquals("12345", ascii(v));

        wrap(v, "ud_send_only_with_imm_v4");
        assertEquals(0x8001, v.bth().pkey());
        assertEquals(0x11111111, v.deth().qkey());
        assertEquals(0xABCD, v.deth().srcQp());
        assertEquals(0x00C0FFEE, v.immDt().immData());
        assertEquals("datagram", ascii(v));

        wrap(v, "rc_flush_v6");
        assertEquals(Feth.PLACEMENT_GLOBAL, v.feth().placementType());
        assertEquals(Feth.SELECTIVITY_MEMORY_REGION, v.feth().selectivityLevel());
        assertEquals(0x4000, v.reth().va());
        assertEquals(0x888, v.reth().rkey());
        assertEquals(0, v.payloadLength());

        wrap(v, "rc_atomic_write_v4");
        assertEquals(8, v.payloadLength());
        assertEquals(0xFEEDFACECAFEBEEFL, v.segment().get(BigEndian.U64, v.payloadOffset()));
    }

    /** Rebuilds a packet from the fields read through the view, with the builder under test. */
    static int reencode(PacketView view, MemorySegment out, long offset, UdpFlow flow, int ipv4Id) {
        PacketBuilder b = new PacketBuilder().start(out, offset, view.opcode());
        Bth bth = view.bth();
        b.bth().init(bth.opcode(), bth.solicited(), bth.migReq(), 0, bth.pkey(), bth.destQp(), bth.ackReq(), bth.psn())
                .tver(bth.tver()).resv8a(bth.resv8a());
        if (view.has(OpcodeTable.HAS_FETH)) {
            b.feth().init(view.feth().placementType(), view.feth().selectivityLevel());
        }
        if (view.has(OpcodeTable.HAS_DETH)) {
            b.deth().init(view.deth().qkey(), view.deth().srcQp());
        }
        if (view.has(OpcodeTable.HAS_RETH)) {
            b.reth().init(view.reth().va(), view.reth().rkey(), view.reth().dmaLength());
        }
        if (view.has(OpcodeTable.HAS_AETH)) {
            b.aeth().init(view.aeth().syndrome(), view.aeth().msn());
        }
        if (view.has(OpcodeTable.HAS_ATOMIC_ETH)) {
            AtomicEth a = view.atomicEth();
            b.atomicEth().init(a.va(), a.rkey(), a.swapOrAdd(), a.compare());
        }
        if (view.has(OpcodeTable.HAS_ATOMIC_ACK_ETH)) {
            b.atomicAckEth().originalValue(view.atomicAckEth().originalValue());
        }
        if (view.has(OpcodeTable.HAS_IMM_DT)) {
            b.immDt().immData(view.immDt().immData());
        }
        if (view.has(OpcodeTable.HAS_IETH)) {
            b.ieth().rkey(view.ieth().rkey());
        }
        MemorySegment.copy(view.segment(), view.payloadOffset(), out, b.payloadOffset(), view.payloadLength());
        return b.finish(view.payloadLength(), new Icrc(), flow, ipv4Id);
    }

    private static void wrap(PacketView view, String name) {
        GoldenPackets.Packet p = GoldenPackets.named(name);
        assertTrue(view.wrap(p.udpPayload(), 0, p.udpPayloadLength()), name);
    }

    private static String ascii(PacketView v) {
        byte[] bytes = v.segment().asSlice(v.payloadOffset(), v.payloadLength()).toArray(ValueLayout.JAVA_BYTE);
        return new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
    }

    static void flip(MemorySegment segment, int bit) {
        long at = bit / 8;
        byte b = segment.get(ValueLayout.JAVA_BYTE, at);
        segment.set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ (1 << (bit % 8))));
    }

    static String hex(MemorySegment segment, long offset, int length) {
        return HexFormat.of().formatHex(segment.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE));
    }
}
