package dev.verbs4j.replicatedlog;

import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.FlushType;
import dev.verbs4j.Verbs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writer and two replicas on the soft provider in this process (devices from the
 * surefire configuration, progress driven by the writer's polls): appends land on both,
 * and a writer that starts again resumes at the smaller tail and cuts the other back.
 */
class ReplicationTest {
    private static final int SIZE = 48;
    @TempDir
    Path dir;
    private final List<DeviceContext> contexts = new ArrayList<>();
    private final List<LogServer> servers = new ArrayList<>();
    private final List<ServerSocket> sockets = new ArrayList<>();
    private final List<InetSocketAddress> targets = new ArrayList<>();

    @BeforeEach
    void twoReplicas() throws IOException {
        List<Device> devices = Verbs.provider("soft").devices();
        for (Device d : devices) {
            contexts.add(d.open());
        }
        for (int r = 0; r < 2; r++) {
            Path file = dir.resolve("r" + r + ".log");
            try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
                LogLayout.format(c.map(FileChannel.MapMode.READ_WRITE, 0, 1 << 16, arena));
            }
            LogServer server = new LogServer(contexts.get(r + 1), file);
            servers.add(server);
            ServerSocket socket = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
            sockets.add(socket);
            targets.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort()));
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    server.serve(socket, line -> { });
                } catch (IOException ignored) {
                    // The socket closed at the end of the test.
                }
            });
        }
    }

    @AfterEach
    void close() throws IOException {
        for (ServerSocket s : sockets) {
            s.close();
        }
        for (LogServer s : servers) {
            s.close();
        }
        for (DeviceContext c : contexts) {
            c.close();
        }
    }

    private long append(Replicator log) {
        byte[] payload = new byte[SIZE];
        Payloads.fill(payload, log.nextSeq(), SIZE);
        return log.append(payload, SIZE);
    }

    private Recovery check(int replica) {
        return LogRecovery.recover(servers.get(replica).file(), (seq, p) -> Payloads.matches(seq, p, SIZE));
    }

    /** A replica closed while it serves a writer disconnects the writer and releases its queue pair, then its domain. */
    @Test
    void aReplicaClosesWhileItServesAWriter() throws IOException {
        try (Replicator log = new Replicator(contexts.get(0), targets, SIZE, FlushType.PERSISTENT, true, Duration.ofSeconds(10))) {
            assertEquals(1, append(log));
            servers.get(0).close();
            servers.get(1).close();
        }
    }

    @Test
    void appendsLandOnEveryReplicaAndAWriterResumesAtTheSmallestTail() throws IOException {
        try (Replicator log = new Replicator(contexts.get(0), targets, SIZE, FlushType.PERSISTENT, true, Duration.ofSeconds(10))) {
            for (int i = 1; i <= 5; i++) {
                assertEquals(i, append(log));
            }
        }
        long tail = 5L * LogLayout.recordBytes(SIZE);
        assertEquals(new Recovery(tail, 5, null), check(0));
        assertEquals(new Recovery(tail, 5, null), check(1));

        // Replica 0 published record 6, replica 1 never received it: an append that was not acknowledged.
        MemorySegment file0 = servers.get(0).file();
        byte[] other = new byte[SIZE];
        long longer = tail + LogLayout.encode(file0, LogLayout.HEADER_BYTES + tail, 6, other, SIZE, new CRC32C());
        file0.set(LogLayout.LONG, LogLayout.TAIL_OFFSET, longer);
        assertEquals(6, LogRecovery.recover(file0).records());

        try (Replicator log = new Replicator(contexts.get(0), targets, SIZE, FlushType.PERSISTENT, true, Duration.ofSeconds(10))) {
            assertEquals(tail, log.tail());
            assertEquals(6, log.nextSeq());
            assertEquals(new Recovery(tail, 5, null), check(0), "replica 0 was cut back to the common tail");
            assertEquals(6, append(log));
            assertEquals(7, append(log));
        }
        Recovery r0 = check(0);
        assertTrue(r0.intact(), r0.toString());
        assertEquals(r0, check(1));
        assertEquals(7, r0.records());
    }

    @Test
    void globalVisibilityAppendsToo() throws IOException {
        try (Replicator log = new Replicator(contexts.get(0), targets, SIZE, FlushType.GLOBAL, false, Duration.ofSeconds(10))) {
            assertEquals(1, append(log));
        }
        assertEquals(1, check(1).records());
    }
}
