package dev.verbs4j.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * A sender's per-byte work for one 4 KiB packet, the payload copied out of a region and the
 * CRC32 of the ICRC taken over it, done as the engine does it (two passes: the copy, then the
 * CRC32 intrinsic) and done the other ways one might: one pass that copies and feeds a
 * table-driven CRC the same 8 bytes, or the two passes interleaved in blocks that stay in the
 * first-level cache. And the CRC32 of a 64 KiB message taken once against once per packet,
 * as the ICRC has it.
 */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CopyCrcBenchmark {
    private static final int PACKET = 4096;
    private static final int MESSAGE = 65536;
    private static final int BLOCK = 512;
    private static final ValueLayout.OfLong LITTLE_ENDIAN_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Slicing-by-8 tables of the reflected CRC-32 polynomial (the CRC32's). */
    private static final int[][] SLICES = slices();

    private final CRC32 crc = new CRC32();
    private Arena arena;
    private MemorySegment region;
    private MemorySegment packet;
    private ByteBuffer packetView;
    private ByteBuffer regionView;

    @Setup
    public void allocate() {
        arena = Arena.ofShared();
        region = arena.allocate(2 * MESSAGE, 64);
        packet = arena.allocate(PACKET, 64);
        for (long i = 0; i < region.byteSize(); i++) {
            region.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31));
        }
        packetView = packet.asByteBuffer();
        regionView = region.asByteBuffer();
    }

    @TearDown
    public void free() {
        arena.close();
    }

    /** The engine's way: the copy, then the CRC32 intrinsic over the packet. */
    @Benchmark
    public int copyThenCrc() {
        MemorySegment.copy(region, PACKET, packet, 0, PACKET);
        crc.reset();
        crc.update(packetView.clear());
        return (int) crc.getValue();
    }

    @Benchmark
    public void copyAlone() {
        MemorySegment.copy(region, PACKET, packet, 0, PACKET);
    }

    @Benchmark
    public int crcAlone() {
        crc.reset();
        crc.update(packetView.clear());
        return (int) crc.getValue();
    }

    /** One pass: each 8 bytes read once, stored into the packet and fed to a slicing-by-8 CRC. */
    @Benchmark
    public int copyAndCrcInOnePass() {
        int c = ~0;
        for (long i = 0; i < PACKET; i += 8) {
            long v = region.get(LITTLE_ENDIAN_LONG, PACKET + i);
            packet.set(LITTLE_ENDIAN_LONG, i, v);
            int low = (int) v ^ c;
            int high = (int) (v >>> 32);
            c = SLICES[7][low & 0xFF] ^ SLICES[6][(low >>> 8) & 0xFF] ^ SLICES[5][(low >>> 16) & 0xFF] ^ SLICES[4][low >>> 24]
                    ^ SLICES[3][high & 0xFF] ^ SLICES[2][(high >>> 8) & 0xFF] ^ SLICES[1][(high >>> 16) & 0xFF]
                    ^ SLICES[0][high >>> 24];
        }
        return ~c;
    }

    /** The two passes interleaved: each block copied, then fed to the intrinsic while it is in the cache. */
    @Benchmark
    public int copyThenCrcByBlocks() {
        crc.reset();
        for (int i = 0; i < PACKET; i += BLOCK) {
            MemorySegment.copy(region, PACKET + i, packet, i, BLOCK);
            crc.update(packetView.clear().position(i).limit(i + BLOCK));
        }
        return (int) crc.getValue();
    }

    /** The CRC32 of a whole message in one call, which no packet's ICRC can use. */
    @Benchmark
    public int crcOncePerMessage() {
        crc.reset();
        crc.update(regionView.clear().limit(MESSAGE));
        return (int) crc.getValue();
    }

    /** The same bytes as sixteen packets, each with a CRC32 of its own, as the ICRC takes them. */
    @Benchmark
    public int crcPerPacketOfMessage() {
        int all = 0;
        for (int i = 0; i < MESSAGE; i += PACKET) {
            crc.reset();
            crc.update(regionView.clear().position(i).limit(i + PACKET));
            all ^= (int) crc.getValue();
        }
        return all;
    }

    private static int[][] slices() {
        int[][] t = new int[8][256];
        for (int n = 0; n < 256; n++) {
            int c = n;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            }
            t[0][n] = c;
        }
        for (int n = 0; n < 256; n++) {
            for (int k = 1; k < 8; k++) {
                t[k][n] = (t[k - 1][n] >>> 8) ^ t[0][t[k - 1][n] & 0xFF];
            }
        }
        return t;
    }
}
