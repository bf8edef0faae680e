package dev.verbs4j.softroce.transport;

import dev.verbs4j.softroce.wire.GoldenPackets;
import dev.verbs4j.softroce.wire.UdpFlow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PcapWriterTest {
    private static final long T0 = 1_767_225_600_123_456_789L; // 2026-01-01T00:00:00.123456789Z

    @TempDir
    Path dir;

    @Test
    void emptyCaptureIsAGlobalHeaderWithRawIpLinkType() throws IOException {
        Path file = dir.resolve("empty.pcap");
        PcapWriter.create(file).close();
        ByteBuffer bytes = read(file);
        assertEquals(PcapWriter.GLOBAL_HEADER_LENGTH, bytes.remaining());
        assertEquals(0xA1B23C4D, bytes.getInt(0));
        assertEquals(2, bytes.getShort(4));
        assertEquals(4, bytes.getShort(6));
        assertEquals(0, bytes.getInt(8));
        assertEquals(PcapWriter.MAX_RECORD_BODY, bytes.getInt(16));
        assertEquals(101, bytes.getInt(20));
    }

    @Test
    void recordsRebuildTheGoldenDatagramsByteForByte() throws IOException {
        Path file = dir.resolve("golden.pcap");
        List<GoldenPackets.Packet> packets = GoldenPackets.all();
        try (PcapWriter writer = PcapWriter.create(file)) {
            long t = T0;
            for (GoldenPackets.Packet p : packets) {
                writer.write(t, p.flow(), p.ipv4Id(), p.udpPayload(), 0, p.udpPayloadLength());
                t += 1_500_000_000L;
            }
        }
        ByteBuffer bytes = read(file);
        int at = PcapWriter.GLOBAL_HEADER_LENGTH;
        long t = T0;
        for (GoldenPackets.Packet p : packets) {
            assertEquals(t / 1_000_000_000L, Integer.toUnsignedLong(bytes.getInt(at)), p.name());
            assertEquals(t % 1_000_000_000L, bytes.getInt(at + 4), p.name());
            assertEquals(p.datagram().length, bytes.getInt(at + 8), p.name());
            assertEquals(p.datagram().length, bytes.getInt(at + 12), p.name());
            byte[] body = Arrays.copyOfRange(bytes.array(), at + 16, at + 16 + p.datagram().length);
            assertEquals(HexFormat.of().formatHex(p.datagram()), HexFormat.of().formatHex(body), p.name());
            at += 16 + p.datagram().length;
            t += 1_500_000_000L;
        }
        assertEquals(bytes.limit(), at, "no trailing bytes");
    }

    @Test
    void packetAtAnOffsetIsRecordedWithoutItsSurroundings() throws IOException {
        GoldenPackets.Packet p = GoldenPackets.named("rc_send_only_v4");
        MemorySegment buffer = MemorySegment.ofArray(new byte[p.udpPayloadLength() + 40]);
        buffer.fill((byte) 0x99);
        MemorySegment.copy(p.udpPayload(), 0, buffer, 17, p.udpPayloadLength());
        Path file = dir.resolve("offset.pcap");
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.write(T0, p.flow(), buffer, 17, p.udpPayloadLength());
        }
        byte[] bytes = Files.readAllBytes(file);
        assertArrayEquals(p.datagram(), Arrays.copyOfRange(bytes, 40, bytes.length));
    }

    @Test
    void fullBufferIsFlushedAndEveryRecordKeptInOrder() throws IOException {
        Path file = dir.resolve("many.pcap");
        int bufferBytes = PcapWriter.GLOBAL_HEADER_LENGTH + PcapWriter.RECORD_HEADER_LENGTH + PcapWriter.MAX_RECORD_BODY;
        UdpFlow flow = new UdpFlow().setIpv4(0x0A000001, 0xC000, 0x0A000002, UdpFlow.ROCE_V2_PORT);
        MemorySegment packet = MemorySegment.ofArray(new byte[4112]);
        int records = 100; // 100 * (16 + 28 + 4112) bytes is several buffers' worth
        try (PcapWriter writer = PcapWriter.create(file, bufferBytes)) {
            for (int i = 0; i < records; i++) {
                packet.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, 8, i);
                writer.write(T0 + i, flow, packet, 0, (int) packet.byteSize());
            }
        }
        ByteBuffer bytes = read(file);
        int at = PcapWriter.GLOBAL_HEADER_LENGTH;
        for (int i = 0; i < records; i++) {
            assertEquals((int) ((T0 + i) % 1_000_000_000L), bytes.getInt(at + 4));
            assertEquals(i, bytes.order(ByteOrder.nativeOrder()).getInt(at + 16 + 28 + 8));
            bytes.order(ByteOrder.LITTLE_ENDIAN);
            at += 16 + 28 + 4112;
        }
        assertEquals(bytes.limit(), at);
    }

    @Test
    void writingAfterCloseFailsAndClosingTwiceIsHarmless() throws IOException {
        PcapWriter writer = PcapWriter.create(dir.resolve("closed.pcap"));
        writer.close();
        writer.close();
        UdpFlow flow = new UdpFlow().setIpv4(1, 2, 3, 4);
        assertThrows(IllegalStateException.class, () -> writer.write(T0, flow, MemorySegment.ofArray(new byte[16]), 0, 16));
    }

    @Test
    void bufferTooSmallForOneMaximumRecordIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> PcapWriter.create(dir.resolve("small.pcap"), 4096));
        assertFalse(Files.exists(dir.resolve("small.pcap")));
    }

    @Test
    void writingPacketsAllocatesNothing() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM cannot measure per-thread allocation");
        GoldenPackets.Packet v4 = GoldenPackets.named("rc_rdma_write_first_v4");
        GoldenPackets.Packet v6 = GoldenPackets.named("rc_rdma_write_first_v6");
        MemorySegment p4 = v4.udpPayload();
        MemorySegment p6 = v6.udpPayload();
        UdpFlow f4 = v4.flow();
        UdpFlow f6 = v6.flow();
        try (PcapWriter writer = PcapWriter.create(dir.resolve("alloc.pcap"))) {
            for (int i = 0; i < 20_000; i++) {
                writer.write(T0 + i, f4, 7, p4, 0, v4.udpPayloadLength());
                writer.write(T0 + i, f6, p6, 0, v6.udpPayloadLength());
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 5_000; i++) {
                writer.write(T0 + i, f4, 7, p4, 0, v4.udpPayloadLength());
                writer.write(T0 + i, f6, p6, 0, v6.udpPayloadLength());
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated < 2_500, "allocated " + allocated + " bytes for 10000 records");
        }
    }

    /** tshark must decode our records as RoCEv2 (BTH opcodes and the Invariant CRC field). */
    @Test
    void tsharkDecodesTheRecordsAsRoceV2() throws Exception {
        CaptureTools.requireTshark();
        Path file = dir.resolve("tshark.pcap");
        GoldenPackets.Packet write = GoldenPackets.named("rc_rdma_write_first_v4");
        GoldenPackets.Packet ack = GoldenPackets.named("rc_acknowledge_v6");
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.write(T0, write.flow(), write.ipv4Id(), write.udpPayload(), 0, write.udpPayloadLength());
            writer.write(T0 + 1000, ack.flow(), ack.udpPayload(), 0, ack.udpPayloadLength());
        }
        Process tshark = new ProcessBuilder("tshark", "-r", file.toString(), "-o", "ip.check_checksum:TRUE",
                "-T", "fields", "-e", "ip.checksum.status", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.destqp",
                "-e", "infiniband.invariant.crc").redirectErrorStream(false).start();
        String out = new String(tshark.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(tshark.waitFor(60, TimeUnit.SECONDS));
        String[] lines = out.strip().split("\n");
        assertEquals(2, lines.length, out);
        // IPv4 header checksum good (1), RC RDMA WRITE FIRST (6) to QP 0x12, ICRC shown in wire order;
        // the IPv6 ACKNOWLEDGE (17) has no IPv4 checksum.
        assertFields(lines[0], "1", 6, 0x12, write);
        assertFields(lines[1], "", 17, 0x15, ack);
    }

    private static void assertFields(String line, String ipChecksumStatus, int opcode, int destQp, GoldenPackets.Packet p) {
        String[] f = line.split("\t", -1);
        assertEquals(4, f.length, line);
        assertEquals(ipChecksumStatus, f[0], line);
        assertEquals(opcode, Integer.decode(f[1]), line);
        assertEquals(destQp, Integer.decode(f[2]), line);
        byte[] d = p.datagram();
        assertEquals(Long.parseLong(HexFormat.of().formatHex(d, d.length - 4, d.length), 16), Long.decode(f[3]), line);
    }

    private static ByteBuffer read(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    }
}
