package dev.verbs4j.conformance.agent;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The runs that keep two processes' copies level: exact to the byte, so a byte only the
 * other side changed is never overwritten, whole to the word, so an 8-byte value is never
 * seen torn, and a block read back is what was written.
 */
class MemoryRunsTest {
    private static final int SIZE = 3 * 65536 + 96;

    private static MemoryRuns.Mirrored mirrored(Arena arena) {
        SharedMapping whole = new SharedMapping("m", SharedMapping.Kind.AT_SAME_ADDRESS, 0x1000, SIZE, 0, SIZE);
        return new MemoryRuns.Mirrored(whole, arena.allocate(SIZE), arena.allocate(SIZE));
    }

    private static byte[] block(MemoryRuns.Mirrored from) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MemoryRuns.write(new DataOutputStream(bytes), List.of(from));
        return bytes.toByteArray();
    }

    @Test
    void onlyTheChangedBytesCrossAndBothShadowsFollow() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemoryRuns.Mirrored here = mirrored(arena);
            MemoryRuns.Mirrored there = mirrored(arena);
            here.live().set(ValueLayout.JAVA_BYTE, 7, (byte) 1);
            here.live().asSlice(100_000, 70_000).fill((byte) 0x5a);
            here.live().set(ValueLayout.JAVA_BYTE, SIZE - 1, (byte) 9);
            // A byte the other side changed and this side did not, in a word this side changed: it must survive.
            there.live().set(ValueLayout.JAVA_BYTE, 6, (byte) 77);

            byte[] block = block(here);
            MemoryRuns.Moved moved = MemoryRuns.read(new DataInputStream(new ByteArrayInputStream(block)), w -> there);

            assertEquals(1 + 70_000 + 1, moved.bytes(), "only the changed bytes");
            assertEquals(4, moved.runs(), "the long run splits at 64 KiB");
            assertEquals(-1, here.live().mismatch(here.shadow()), "the sender's shadow follows its memory");
            assertEquals(77, there.live().get(ValueLayout.JAVA_BYTE, 6), "the other side's own change survives");
            there.live().set(ValueLayout.JAVA_BYTE, 6, (byte) 0);
            assertEquals(-1, there.live().mismatch(here.live()), "the receiver has the sender's bytes");
            assertEquals(-1, there.shadow().mismatch(here.live()), "and believes the sender has them too");
            assertEquals(4, block(here).length, "nothing changed since: an empty block");
        }
    }

    @Test
    void anEightByteValueArrivesWhole() throws IOException, InterruptedException {
        try (Arena arena = Arena.ofShared()) {
            MemoryRuns.Mirrored here = mirrored(arena);
            MemoryRuns.Mirrored there = mirrored(arena);
            // Every other byte the same in both: a diff by bytes alone would send four runs of one byte.
            long[] values = {0x1111111111111111L, 0x1122112211221122L};
            java.util.concurrent.atomic.AtomicLong torn = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            Thread reader = Thread.ofPlatform().start(() -> {
                while (!done.get()) {
                    long v = there.live().get(ValueLayout.JAVA_LONG, 64);
                    if (v != 0 && v != values[0] && v != values[1]) {
                        torn.compareAndSet(0, v);
                    }
                }
            });
            for (int i = 0; i < 20_000; i++) {
                here.live().set(ValueLayout.JAVA_LONG, 64, values[i & 1]);
                MemoryRuns.read(new DataInputStream(new ByteArrayInputStream(block(here))), w -> there);
            }
            done.set(true);
            reader.join();
            assertEquals(0, torn.get(), "the reader saw a mix of two values: 0x" + Long.toHexString(torn.get()));
        }
    }

    @Test
    void theLastBytesOfALengthThatIsNoMultipleOfEightCrossToo() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            int size = 5003;
            SharedMapping whole = new SharedMapping("f", SharedMapping.Kind.MAPPED_FILE, 0, size, 0, size);
            MemoryRuns.Mirrored here = new MemoryRuns.Mirrored(whole, arena.allocate(size, 8), arena.allocate(size, 8));
            MemoryRuns.Mirrored there = new MemoryRuns.Mirrored(whole, arena.allocate(size, 8), arena.allocate(size, 8));
            here.live().set(ValueLayout.JAVA_BYTE, 5001, (byte) 0x42);
            here.live().set(ValueLayout.JAVA_BYTE, 4999, (byte) 0x24);
            there.live().set(ValueLayout.JAVA_BYTE, 5002, (byte) 0x77);

            MemoryRuns.Moved moved = MemoryRuns.read(new DataInputStream(new ByteArrayInputStream(block(here))), w -> there);

            assertEquals(2, moved.bytes());
            assertEquals(0x42, there.live().get(ValueLayout.JAVA_BYTE, 5001), "a byte of the tail");
            assertEquals(0x24, there.live().get(ValueLayout.JAVA_BYTE, 4999), "a byte of the last whole word");
            assertEquals(0x77, there.live().get(ValueLayout.JAVA_BYTE, 5002), "the receiver's own tail byte survives");
            assertEquals(4, block(here).length, "nothing changed since: an empty block");
        }
    }

    @Test
    void aRunOutsideTheMappingIsRefused() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(1);
            new SharedMapping("m", SharedMapping.Kind.AT_SAME_ADDRESS, 0x1000, SIZE, 0, SIZE).write(out);
            out.writeInt(1);
            out.writeLong(SIZE - 8);
            out.writeInt(2);
            out.write(new byte[18]);
            MemoryRuns.Mirrored there = mirrored(arena);
            assertThrows(IOException.class,
                    () -> MemoryRuns.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), w -> there));
        }
    }
}
