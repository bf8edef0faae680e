package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A persistent FLUSH completes only once the WRITE before it is in the responder's
 * file-backed region, and what it covered is in the file when the responder process is
 * killed with SIGKILL right after the completion: a process's death loses nothing the
 * FLUSH acknowledged.
 *
 * <p>A killed process leaves its dirty pages in the kernel's page cache, so this test
 * cannot tell whether the FLUSH forced them to the medium. That is the power-loss run's
 * part (scripts/vm-power-loss.py): it kills the whole VM, and with {@code --negative} shows
 * that appends acknowledged without the force are lost.
 */
class DurabilityTest {
    private static final int SIZE = 1 << 20;

    @Test
    void aFlushedWriteIsInTheFileWhenTheResponderIsKilledAfterTheCompletion(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pmem.img");
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.truncate(SIZE);
            c.write(java.nio.ByteBuffer.allocate(1), SIZE - 1);
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        Process responder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                PersistentResponder.class.getName(), file.toString(), "127.0.0.3", "27942")
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(responder.getInputStream()));
            assertEquals("ready", out.readLine(), "responder did not start");
            SoftDevice device = SoftProvider.addDevice(SoftDeviceConfig.of("writer", InetAddress.getByName("127.0.0.4"))
                    .withPorts(27941, 27941));
            try (Arena arena = Arena.ofShared()) {
                DeviceContext ctx = device.open();
                ProtectionDomain pd = ctx.allocatePd();
                CompletionQueue cq = ctx.createCq(16);
                QueuePair qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).allow(WrOpcode.FLUSH));
                MemorySegment buf = arena.allocate(SIZE, 4096);
                for (int i = 0; i < SIZE; i += 8) {
                    buf.set(ValueLayout.JAVA_LONG, i, 0x5eed_0000_0000L + i);
                }
                MemoryRegion mr = pd.registerMemory(buf, EnumSet.of(Access.LOCAL_WRITE));
                QpEndpoint remote = RcConnector.connect(qp, new InetSocketAddress("127.0.0.3", 27942),
                        new RcOptions().access(EnumSet.of(Access.LOCAL_WRITE)), Duration.ofSeconds(30));
                SendWorkRequest wr = new SendWorkRequest();
                qp.postSend(wr.wrId(1).signaled(false).buffer(mr, 0, SIZE).rdmaWrite(remote.address(), remote.rkey()));
                qp.postSend(wr.wrId(2).signaled(true).flush(remote.address(), remote.rkey(), SIZE, FlushType.PERSISTENT, FlushLevel.RANGE));
                WorkCompletion[] wc = {new WorkCompletion()};
                long end = System.nanoTime() + 30_000_000_000L;
                while (cq.poll(wc) == 0) {
                    assertTrue(System.nanoTime() < end, "no FLUSH completion");
                    Thread.onSpinWait();
                }
                // Kill the responder at once: nothing it could still do must matter.
                responder.destroyForcibly();
                assertTrue(responder.waitFor(10, TimeUnit.SECONDS));
                assertEquals(WcStatus.SUCCESS, wc[0].status(), wc[0].toString());
                assertEquals(WcOpcode.FLUSH, wc[0].opcode());
                qp.close();
                mr.close();
                cq.close();
                pd.close();
                ctx.close();
                try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ); Arena read = Arena.ofConfined()) {
                    MemorySegment image = c.map(FileChannel.MapMode.READ_ONLY, 0, SIZE, read);
                    assertEquals(-1, image.mismatch(buf), "every byte written and flushed is in the file");
                }
            }
        } finally {
            responder.destroyForcibly();
        }
    }
}
