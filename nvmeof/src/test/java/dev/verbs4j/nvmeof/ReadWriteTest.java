package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.Completion;
import dev.verbs4j.nvmeof.host.HostOptions;
import dev.verbs4j.nvmeof.host.HostQueue;
import dev.verbs4j.nvmeof.host.KeyMethod;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.DatasetRanges;
import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seeded writes read back at queue depth, through keyed SGLs and in capsules, with each key method. */
class ReadWriteTest {
    private static final int PORT = 4421;
    private static final int NSID = 1;
    private static final int BLOCK = 512;
    @RegisterExtension
    static final SharedTarget TARGET = new SharedTarget(PORT);

    private static HostOptions options() {
        return Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT);
    }

    /** Writes {@code count} buffers of {@code blocks} blocks each from LBA {@code base}, then reads them back. */
    private static Completion[][] writeThenRead(NvmeHost host, HostQueue queue, long base, int count, int blocks,
                                                long seed) {
        int bytes = blocks * BLOCK;
        Command[] writes = new Command[count];
        Command[] reads = new Command[count];
        MemorySegment[] in = new MemorySegment[count];
        for (int i = 0; i < count; i++) {
            MemorySegment out = host.allocateBuffer(bytes);
            Patterns.fill(out, seed + i);
            writes[i] = Command.write(NSID, base + (long) i * blocks, blocks, out);
            in[i] = host.allocateBuffer(bytes);
            reads[i] = Command.read(NSID, base + (long) i * blocks, blocks, in[i]);
        }
        Patterns.Outcome written = Patterns.run(queue, writes);
        Patterns.Outcome read = Patterns.run(queue, reads);
        assertTrue(written.maxOutstanding() > 1, "writes were queued " + written.maxOutstanding() + " deep");
        assertTrue(read.maxOutstanding() > 1, "reads were queued " + read.maxOutstanding() + " deep");
        for (int i = 0; i < count; i++) {
            assertTrue(Patterns.matches(in[i], seed + i), "read " + i + " returns what write " + i + " wrote");
        }
        return new Completion[][] {written.completions(), read.completions()};
    }

    @Test
    void keyedWritesAndReadsAtDepthAreInvalidatedByTheController() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), options().withInCapsule(false))) {
            Completion[][] done = writeThenRead(host, host.ioQueue(1), 0, 64, 16, 11);
            for (Completion[] phase : done) {
                for (Completion c : phase) {
                    assertTrue(c.invalidatedByController(), "the response invalidated the key (WITH_INV)");
                    assertFalse(c.invalidatedLocally());
                }
            }
        }
    }

    @Test
    void inCapsuleWritesCarryTheirDataWithoutAKey() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), options())) {
            Completion[][] done = writeThenRead(host, host.ioQueue(2), 1024, 40, 8, 23);
            for (Completion c : done[0]) {
                assertFalse(c.invalidatedByController(), "a write of 4 KiB goes in the capsule: no key to invalidate");
                assertFalse(c.invalidatedLocally());
            }
            for (Completion c : done[1]) {
                assertTrue(c.invalidatedByController());
            }
        }
    }

    @Test
    void hostInvalidatesWhenTheResponseDoesNot() {
        try (Target plain = Loopback.target(PORT + 10, Loopback.options(PORT + 10).withRemoteInvalidate(false));
             NvmeHost host = NvmeHost.connect(Loopback.soft(),
                     Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT + 10).withInCapsule(false))) {
            Completion[][] done = writeThenRead(host, host.ioQueue(1), 0, 48, 4, 37);
            for (Completion[] phase : done) {
                for (Completion c : phase) {
                    assertFalse(c.invalidatedByController());
                    assertTrue(c.invalidatedLocally(), "the host posted LOCAL_INV before reusing the slot");
                }
            }
        }
    }

    @Test
    void typeTwoWindowsServeAsKeys() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), options().withKeyMethod(KeyMethod.WINDOW).withInCapsule(false))) {
            Completion[][] done = writeThenRead(host, host.ioQueue(1), 512, 32, 8, 41);
            assertTrue(done[1][0].invalidatedByController(), "SEND with invalidate takes a type 2 window's key too");
        }
    }

    @Test
    void registeredRegionsServeAsKeys() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), options().withKeyMethod(KeyMethod.REGION).withInCapsule(false))) {
            Completion[][] done = writeThenRead(host, host.ioQueue(1), 768, 32, 8, 43);
            assertFalse(done[1][0].invalidatedByController(), "a region's key is not asked to be invalidated");
            assertFalse(done[1][0].invalidatedLocally());
        }
    }

    @Test
    void largeTransfersAndFourKibBlocks() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), options())) {
            int bytes = 128 * 1024;
            MemorySegment out = host.allocateBuffer(bytes);
            MemorySegment in = host.allocateBuffer(bytes);
            Patterns.fill(out, 5);
            HostQueue q = host.ioQueue(1);
            q.execute(Command.write(2, 8, bytes / 4096, out), Duration.ofSeconds(10));
            q.execute(Command.read(2, 8, bytes / 4096, in), Duration.ofSeconds(10));
            assertTrue(Patterns.matches(in, 5));
        }
    }

    @Test
    void flushAndWriteZeroes() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), options())) {
            HostQueue q = host.ioQueue(1);
            MemorySegment out = host.allocateBuffer(8 * BLOCK);
            Patterns.fill(out, 99);
            q.execute(Command.write(NSID, 1900, 8, out), Duration.ofSeconds(10));
            q.execute(new Command().opcode(Opcodes.IO_FLUSH).nsid(NSID), Duration.ofSeconds(10));
            q.execute(new Command().opcode(Opcodes.IO_FLUSH).nsid(0xffffffff), Duration.ofSeconds(10));
            Command zeroes = new Command().opcode(Opcodes.IO_WRITE_ZEROES).nsid(NSID);
            zeroes.sqe().startLba(1902).cdw(12, 1);
            q.execute(zeroes, Duration.ofSeconds(10));
            assertReadsBack(host, q, 1900, out, block -> block == 2 || block == 3);
        }
    }

    /**
     * Dataset Management: blocks it deallocates read as zeroes (DLFEAT 001b), the others keep
     * their data; a list with a range past the namespace's end is LBA Out of Range and
     * deallocates none of its ranges, the good ones before it included.
     */
    @Test
    void datasetManagementDeallocatesWholeListsOnly() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), options())) {
            HostQueue q = host.ioQueue(1);
            MemorySegment out = host.allocateBuffer(8 * BLOCK);
            Patterns.fill(out, 77);
            q.execute(Command.write(NSID, 1800, 8, out), Duration.ofSeconds(10));
            MemorySegment ranges = host.allocateBuffer(2 * DatasetRanges.ENTRY_BYTES);
            DatasetRanges.write(ranges, 0, 1801, 1);
            DatasetRanges.write(ranges, 1, 1804, 2);
            q.execute(dataset(ranges, 2), Duration.ofSeconds(10));
            DatasetRanges.write(ranges, 0, 1800, 1);
            DatasetRanges.write(ranges, 1, host.namespaces().get(0).blocks() - 1, 2);
            NvmeException e = assertThrows(NvmeException.class, () -> q.execute(dataset(ranges, 2), Duration.ofSeconds(10)));
            assertEquals(NvmeStatus.LBA_RANGE | NvmeStatus.DNR, e.status());
            assertReadsBack(host, q, 1800, out, block -> block == 1 || block == 4 || block == 5);
        }
    }

    /**
     * Reads back the 8 blocks at {@code lba} that {@code written} was written to: the blocks
     * {@code zeroed} names (0 to 7) read as zeroes, every other byte as written.
     */
    private static void assertReadsBack(NvmeHost host, HostQueue q, long lba, MemorySegment written, IntPredicate zeroed) {
        MemorySegment in = host.allocateBuffer(8 * BLOCK);
        q.execute(Command.read(NSID, lba, 8, in), Duration.ofSeconds(10));
        for (int i = 0; i < 8 * BLOCK; i++) {
            byte expected = zeroed.test(i / BLOCK) ? 0 : written.get(ValueLayout.JAVA_BYTE, i);
            assertEquals(expected, in.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
    }

    private static Command dataset(MemorySegment ranges, int count) {
        return new Command().opcode(Opcodes.IO_DATASET_MANAGEMENT).nsid(NSID).cdw(10, count - 1)
                .cdw(11, DatasetRanges.ATTRIBUTE_DEALLOCATE).data(ranges, true);
    }
}
