package dev.verbs4j.tools.perf;

import dev.verbs4j.Device;
import dev.verbs4j.FlushType;
import dev.verbs4j.Mtu;
import dev.verbs4j.Provider;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.Verbs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Two connected RC queue pairs in one process: on two devices of the provider when it has
 * two (soft0 and soft1), else twice on its one device (rxe0 loops back in the kernel).
 */
final class Loopback extends PerfPair {
    final Arena arena;
    final End b;
    private final RcOptions options;
    private QueuePair[] requesters;

    Loopback(String providerName, long bufferSize, int depth, Mtu mtu, boolean flush) {
        this(providerName, bufferSize, depth, mtu, flush, false, false);
    }

    /** With {@code persistent}, the responder's buffer is a mapped file registered for persistent FLUSH. */
    Loopback(String providerName, long bufferSize, int depth, Mtu mtu, boolean flush, boolean persistent, boolean fastRegister) {
        this(Arena.ofShared(), devices(providerName), bufferSize, depth, mtu, flush, persistent, fastRegister);
    }

    private Loopback(Arena arena, Device[] devices, long bufferSize, int depth, Mtu mtu, boolean flush, boolean persistent,
                     boolean fastRegister) {
        this(arena, devices, new End(devices[0], arena, bufferSize, depth, flush, null, fastRegister),
                new End(devices[1], arena, bufferSize, depth, flush, persistent ? mappedFile(arena, bufferSize) : null,
                        fastRegister), mtu, flush, persistent);
    }

    private Loopback(Arena arena, Device[] devices, End a, End b, Mtu mtu, boolean flush, boolean persistent) {
        super(a, b.mr.address(), b.mr.rkey(), devices[0].providerName() + " " + devices[0].name() + " <-> "
                + devices[1].name() + ", MTU " + mtu.bytes() + (persistent ? ", responder memory: mapped file" : ""),
                persistent ? FlushType.PERSISTENT : FlushType.GLOBAL);
        this.arena = arena;
        this.b = b;
        options = new RcOptions().mtu(mtu).access(End.access(flush, persistent));
        connect(a.qp, b.qp);
    }

    /** The provider's first two devices, or its one device twice. */
    private static Device[] devices(String providerName) {
        Provider provider = Verbs.provider(providerName);
        List<Device> devices = provider.devices();
        if (devices.isEmpty()) {
            throw new IllegalStateException("provider " + providerName + " has no device here"
                    + provider.unavailableReason().map(r -> ": " + r).orElse(""));
        }
        return new Device[] {devices.get(0), devices.size() > 1 ? devices.get(1) : devices.get(0)};
    }

    private void connect(QueuePair qa, QueuePair qb) {
        QpEndpoint ea = RcConnector.localEndpoint(qa, options);
        QpEndpoint eb = RcConnector.localEndpoint(qb, options);
        RcConnector.bringUp(qa, ea, eb, options);
        RcConnector.bringUp(qb, eb, ea, options);
    }

    @Override
    End responder() {
        return b;
    }

    @Override
    QueuePair[] requesters(int count) {
        if (requesters != null && requesters.length == count) {
            return requesters;
        }
        if (requesters != null) {
            throw new IllegalStateException("this loopback already has " + requesters.length + " requesters");
        }
        QueuePair[] qps = new QueuePair[count];
        qps[0] = a.qp;
        for (int i = 1; i < count; i++) {
            QueuePair qa = a.newQp();
            connect(qa, b.newQp());
            qps[i] = qa;
        }
        requesters = qps;
        return qps;
    }

    @Override
    void begin(String test, int size, int count) {
        // The responder is here: it does its share in the requester's loops.
    }

    @Override
    void end() {
    }

    static MemorySegment mappedFile(Arena arena, long size) {
        try {
            Path file = Files.createTempFile("verbs4j-perf", ".img");
            file.toFile().deleteOnExit();
            try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                c.truncate(size);
                c.write(java.nio.ByteBuffer.allocate(1), size - 1);
                return c.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    String softCounters() {
        return SoftCounterLine.of(a, b);
    }

    @Override
    public void close() {
        a.close();
        b.close();
        arena.close();
    }
}
