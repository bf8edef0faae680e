package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** {@link Icrc#compute}'s CRC of the packet alone plus a flow's term, against the CRC of the whole pseudo packet. */
class IcrcTermsTest {
    private static final byte[] V6_SOURCE = {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    private static final byte[] V6_DESTINATION = {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};

    @Test
    void packetPlusTermIsThePseudoPacketsCrcForEveryFlowLengthAndId() {
        SplittableRandom random = new SplittableRandom(11);
        UdpFlow[] flows = {
            new UdpFlow().setIpv4(0xC0000201, 0xC123, 0xC0000202, UdpFlow.ROCE_V2_PORT),
            new UdpFlow().setIpv4(0x7F000001, 49152, 0x0A000001, 4792),
            new UdpFlow().set(V6_SOURCE, 0xC123, V6_DESTINATION, UdpFlow.ROCE_V2_PORT),
        };
        Icrc icrc = new Icrc();
        for (int i = 0; i < 3_000; i++) {
            UdpFlow flow = flows[random.nextInt(flows.length)];
            int length = i < 200 ? 16 + i : 16 + random.nextInt(9_000);
            int id = random.nextInt(4) == 0 ? 0 : random.nextInt(1 << 16);
            MemorySegment packet = packetWithByte4(length, 0, random);
            assertEquals(icrc.computeOverPseudoPacket(flow, id, packet, 0, length), icrc.compute(flow, id, packet, 0, length),
                    flow + ", length " + length + ", ID " + id);
        }
    }

    @Test
    void packetsWithBth4SetTakeTheLongWayAndGetTheSameIcrc() {
        SplittableRandom random = new SplittableRandom(12);
        UdpFlow flow = new UdpFlow().setIpv4(0xC0000201, 0xC123, 0xC0000202, UdpFlow.ROCE_V2_PORT);
        Icrc icrc = new Icrc();
        for (int byte4 = 1; byte4 < 256; byte4++) {
            MemorySegment packet = packetWithByte4(1_044, byte4, random);
            int icrcWithByte4 = icrc.compute(flow, 0, packet, 0, 1_044);
            assertEquals(icrc.computeOverPseudoPacket(flow, 0, packet, 0, 1_044), icrcWithByte4);
            packet.set(ValueLayout.JAVA_BYTE, Bth.RESV8A_OFFSET, (byte) 0);
            assertEquals(icrcWithByte4, icrc.compute(flow, 0, packet, 0, 1_044), "byte 4 is masked: its value does not count");
        }
    }

    @Test
    void aFlowWhoseEndsChangeForgetsItsTerms() {
        SplittableRandom random = new SplittableRandom(13);
        MemorySegment packet = packetWithByte4(4_124, 0, random);
        Icrc icrc = new Icrc();
        UdpFlow flow = new UdpFlow().setIpv4(0xC0000201, 0xC123, 0xC0000202, UdpFlow.ROCE_V2_PORT);
        int before = icrc.compute(flow, 0, packet, 0, 4_124);

        flow.setIpv4(0xC0000201, 0xC124, 0xC0000202, UdpFlow.ROCE_V2_PORT);
        int afterPortChange = icrc.compute(flow, 0, packet, 0, 4_124);
        assertNotEquals(before, afterPortChange);
        assertEquals(icrc.computeOverPseudoPacket(flow, 0, packet, 0, 4_124), afterPortChange);

        flow.setReverseOf(flow);
        assertEquals(icrc.computeOverPseudoPacket(flow, 0, packet, 0, 4_124), icrc.compute(flow, 0, packet, 0, 4_124));

        flow.set(V6_SOURCE, 1, V6_DESTINATION, 2);
        assertEquals(icrc.computeOverPseudoPacket(flow, 0, packet, 0, 4_124), icrc.compute(flow, 0, packet, 0, 4_124));
    }

    @Test
    void lengthsThatShareASlotReplaceEachOtherAndStayRight() {
        SplittableRandom random = new SplittableRandom(14);
        UdpFlow flow = new UdpFlow().setIpv4(0xC0000201, 0xC123, 0xC0000202, UdpFlow.ROCE_V2_PORT);
        int first = 4_112;
        int second = first + 1;
        while (IcrcTerms.slot(second) != IcrcTerms.slot(first)) {
            second++;
        }
        Icrc icrc = new Icrc();
        for (int round = 0; round < 4; round++) {
            for (int length : new int[] {first, second}) {
                MemorySegment packet = packetWithByte4(length, 0, random);
                assertEquals(icrc.computeOverPseudoPacket(flow, 0, packet, 0, length), icrc.compute(flow, 0, packet, 0, length));
            }
        }
    }

    private static MemorySegment packetWithByte4(int length, int byte4, SplittableRandom random) {
        MemorySegment packet = IcrcTest.randomPacket(length, random.nextLong());
        packet.set(ValueLayout.JAVA_BYTE, Bth.RESV8A_OFFSET, (byte) byte4);
        return packet;
    }
}
