package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.NvmeHost;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two hosts with a controller each, their queues interleaved on one target. */
class TwoHostsTest {
    private static final int PORT = 4424;

    @Test
    void twoHostsWriteAndReadAtOnce() {
        try (Target target = Loopback.target(PORT, Loopback.options(PORT));
             NvmeHost a = NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT));
             NvmeHost b = NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_B, Loopback.HOST_B_ADDRESS, PORT))) {
            assertNotEquals(a.cntlid(), b.cntlid());
            int count = 32;
            Command[] writesA = new Command[count];
            Command[] writesB = new Command[count];
            Command[] readsA = new Command[count];
            Command[] readsB = new Command[count];
            MemorySegment[] inA = new MemorySegment[count];
            MemorySegment[] inB = new MemorySegment[count];
            for (int i = 0; i < count; i++) {
                MemorySegment outA = a.allocateBuffer(4096);
                MemorySegment outB = b.allocateBuffer(4096);
                Patterns.fill(outA, 100 + i);
                Patterns.fill(outB, 200 + i);
                writesA[i] = Command.write(1, i * 8L, 8, outA).allowInCapsule(false);
                writesB[i] = Command.write(1, 512 + i * 8L, 8, outB);
                inA[i] = a.allocateBuffer(4096);
                inB[i] = b.allocateBuffer(4096);
                readsA[i] = Command.read(1, i * 8L, 8, inA[i]);
                readsB[i] = Command.read(1, 512 + i * 8L, 8, inB[i]);
            }
            Thread other = Thread.ofPlatform().start(() -> {
                Patterns.run(b.ioQueue(2), writesB);
                Patterns.run(b.ioQueue(1), readsB);
            });
            Patterns.run(a.ioQueue(1), writesA);
            Patterns.run(a.ioQueue(2), readsA);
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            for (int i = 0; i < count; i++) {
                assertTrue(Patterns.matches(inA[i], 100 + i), "host A block " + i);
                assertTrue(Patterns.matches(inB[i], 200 + i), "host B block " + i);
            }
        }
    }
}
