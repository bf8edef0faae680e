package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.FileNamespace;
import dev.verbs4j.nvmeof.controller.Subsystem;
import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.Opcodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A file namespace keeps what was written and flushed, at the offsets the LBAs name. */
class FileNamespaceTest {
    private static final int PORT = 4426;

    @Test
    void flushedWritesAreInTheFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("ns1.img");
        FileNamespace ns = new FileNamespace(file, 1 << 20, 9);
        Subsystem subsystem = new Subsystem(Loopback.SUBSYSTEM, "VERBS4JFILE", List.of(ns), Set.of());
        try (Target target = new Target(Loopback.soft(), Loopback.options(PORT), List.of(subsystem))) {
            target.start();
            try (NvmeHost host = NvmeHost.connect(Loopback.soft(),
                    Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT))) {
                assertTrue(host.identity().volatileWriteCache(), "a file namespace reports a volatile write cache");
                MemorySegment out = host.allocateBuffer(64 * 1024);
                Patterns.fill(out, 77);
                host.ioQueue(1).execute(Command.write(1, 100, 128, out), Duration.ofSeconds(10));
                host.ioQueue(1).execute(new Command().opcode(Opcodes.IO_FLUSH).nsid(1), Duration.ofSeconds(10));
            }
        }
        ns.close();
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(1 << 20, bytes.length);
        MemorySegment written = MemorySegment.ofArray(bytes).asSlice(100 * 512, 64 * 1024);
        assertTrue(Patterns.matches(written, 77), "the file holds the blocks at LBA 100 on");
    }
}
