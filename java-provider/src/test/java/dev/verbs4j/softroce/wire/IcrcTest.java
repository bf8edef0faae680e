package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IcrcTest {
    private static final ValueLayout.OfInt LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final UdpFlow V4 = new UdpFlow().setIpv4(0xC0000201, 0xC123, 0xC0000202, UdpFlow.ROCE_V2_PORT);
    private static final UdpFlow V6 = new UdpFlow().set(
            new byte[] {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 0xC123,
            new byte[] {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, UdpFlow.ROCE_V2_PORT);

    @Test
    void eightMaskedLrhBytesGiveTheKernelSeed() {
        CRC32 crc = new CRC32();
        crc.update(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
        int register = ~(int) crc.getValue(); // CRC32.getValue() returns the complemented register
        assertEquals(0xdebb20e3, register);
    }

    @Test
    void generateStoresTheIcrcLittleEndianInTheLastFourBytes() {
        MemorySegment packet = randomPacket(64, 1);
        Icrc icrc = new Icrc();
        int expected = icrc.compute(V4, 0, packet, 0, 64);
        icrc.generate(V4, 0, packet, 0, 64);
        assertEquals(expected & 0xFF, packet.get(ValueLayout.JAVA_BYTE, 60) & 0xFF);
        assertEquals(expected >>> 24, packet.get(ValueLayout.JAVA_BYTE, 63) & 0xFF);
        assertEquals(0, icrc.check(V4, packet, 0, 64));
        assertEquals(Icrc.MISMATCH, icrc.check(V6, packet, 0, 64), "generated for the IPv4 flow");
    }

    @Test
    void computeIgnoresTheBytesOfTheIcrcField() {
        MemorySegment packet = randomPacket(40, 2);
        Icrc icrc = new Icrc();
        int before = icrc.compute(V6, 0, packet, 0, 40);
        packet.set(LE, 36, ~packet.get(LE, 36));
        assertEquals(before, icrc.compute(V6, 0, packet, 0, 40));
    }

    @Test
    void packetAtAnOffsetInsideALargerBufferGetsTheSameIcrc() {
        MemorySegment packet = randomPacket(100, 3);
        MemorySegment big = Arena.ofAuto().allocate(1000);
        MemorySegment.copy(packet, 0, big, 333, 100);
        Icrc icrc = new Icrc();
        assertEquals(icrc.compute(V4, 7, packet, 0, 100), icrc.compute(V4, 7, big, 333, 100));
        MemorySegment heap = MemorySegment.ofArray(new byte[200]);
        MemorySegment.copy(packet, 0, heap, 50, 100);
        assertEquals(icrc.compute(V6, 0, packet, 0, 100), icrc.compute(V6, 0, heap, 50, 100));
    }

    @Test
    void ipv4IdentificationChangesTheIcrcButIpv6HasNone() {
        MemorySegment packet = randomPacket(48, 4);
        Icrc icrc = new Icrc();
        assertNotEquals(icrc.compute(V4, 0, packet, 0, 48), icrc.compute(V4, 1, packet, 0, 48));
        assertEquals(icrc.compute(V6, 0, packet, 0, 48), icrc.compute(V6, 0xABCD, packet, 0, 48));
    }

    @Test
    void checkRecoversEveryIpv4IdentificationOfAShortPacket() {
        MemorySegment packet = randomPacket(28, 5);
        Icrc icrc = new Icrc();
        for (int id = 0; id <= 0xFFFF; id++) {
            icrc.generate(V4, id, packet, 0, 28);
            assertEquals(id, icrc.check(V4, packet, 0, 28));
        }
    }

    @Test
    void checkRecoversSampledIpv4IdentificationsAtManyLengths() {
        Icrc icrc = new Icrc();
        SplittableRandom random = new SplittableRandom(6);
        for (int length : new int[] {16, 17, 20, 33, 64, 100, 1040, 4112, 9016, 65527}) {
            MemorySegment packet = randomPacket(length, length);
            for (int n = 0; n < 64; n++) {
                int id = n == 0 ? 0xFFFF : random.nextInt(0x10000);
                icrc.generate(V4, id, packet, 0, length);
                assertEquals(id, icrc.check(V4, packet, 0, length), "length " + length + " id " + id);
            }
        }
    }

    @Test
    void changingTheIpv4IdOfABuiltPacketGivesTheIcrcItWouldHaveBeenBuiltWith() {
        Icrc icrc = new Icrc();
        // Twelve changes per length: the tables take over after the first eight, so both ways are checked.
        Ipv4IdTables tables = new Ipv4IdTables();
        for (int length : new int[] {16, 48, 1060, 4136, 65527}) {
            MemorySegment packet = randomPacket(length, length + 1);
            icrc.generate(V4, 0, packet, 0, length);
            int builtForZero = packet.get(BigEndian.LE32, length - 4);
            for (int id : new int[] {1, 2, 14, 63, 0x7DCF, 0xFFFF}) {
                Icrc.changeIpv4Id(packet, length, id, tables);
                assertEquals(icrc.compute(V4, id, packet, 0, length), packet.get(BigEndian.LE32, length - 4),
                        "length " + length + " id " + id);
                assertEquals(id, icrc.check(V4, packet, 0, length));
                Icrc.changeIpv4Id(packet, length, id, tables);
                assertEquals(builtForZero, packet.get(BigEndian.LE32, length - 4), "applied twice, length " + length);
            }
        }
        assertEquals(5, tables.tablesBuilt(), "a table for each length");
    }

    @Test
    void ipv6CheckHasNoIdentificationToRecover() {
        MemorySegment packet = randomPacket(64, 7);
        Icrc icrc = new Icrc();
        icrc.generate(V6, 0, packet, 0, 64);
        assertEquals(0, icrc.check(V6, packet, 0, 64));
        packet.set(LE, 60, packet.get(LE, 60) ^ 0x0001_0000);
        assertEquals(Icrc.MISMATCH, icrc.check(V6, packet, 0, 64));
    }

    @Test
    void singleBitErrorsInAFullMtuPacketAreNeverExplainedByAnIpv4Identification() {
        // An RC RDMA WRITE MIDDLE with a 4096-byte MTU payload, sent by rxe with some ID.
        int length = Bth.LENGTH + 4096 + Icrc.LENGTH;
        MemorySegment packet = randomPacket(length, 8);
        packet.set(ValueLayout.JAVA_BYTE, 0, (byte) Opcodes.RC_RDMA_WRITE_MIDDLE);
        Icrc icrc = new Icrc();
        icrc.generate(V4, 0x4D2, packet, 0, length);
        for (int bit = 0; bit < length * 8; bit++) {
            if (bit / 8 == Bth.RESV8A_OFFSET) {
                continue;
            }
            GoldenPacketTest.flip(packet, bit);
            int result = icrc.check(V4, packet, 0, length);
            GoldenPacketTest.flip(packet, bit);
            assertEquals(Icrc.MISMATCH, result, "bit " + bit);
        }
    }

    @Test
    void lengthsThatCannotHoldABthAndAnIcrcAreRejected() {
        MemorySegment packet = randomPacket(64, 9);
        Icrc icrc = new Icrc();
        assertThrows(IllegalArgumentException.class, () -> icrc.compute(V4, 0, packet, 0, 15));
        assertThrows(IllegalArgumentException.class, () -> icrc.check(V4, packet, 0, 0x10000));
    }

    static MemorySegment randomPacket(int length, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        MemorySegment segment = Arena.ofAuto().allocate(length);
        for (int i = 0; i < length; i++) {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt(256));
        }
        return segment;
    }
}
