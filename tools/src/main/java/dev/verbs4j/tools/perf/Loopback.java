package dev.verbs4j.tools.perf;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.Mtu;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.Provider;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.Verbs;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;

import dev.verbs4j.FlushType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;

/**
 * Two connected RC queue pairs in one process: on two devices of the provider when it has
 * two (soft0 and soft1), else twice on its one device (rxe0 loops back in the kernel).
 */
final class Loopback implements AutoCloseable {
    static final EnumSet<Access> ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL);

    final Arena arena = Arena.ofShared();
    final End a;
    final End b;
    final String description;
    final FlushType flushType;
    private final RcOptions options;
    private final List<QueuePair> extraQps = new java.util.ArrayList<>();
    private QueuePair[] requesters;

    /** One end: its queues, a buffer and its region. */
    static final class End {
        final DeviceContext ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemorySegment buf;
        final MemoryRegion mr;

        private final QpInitAttributes init;

        End(Device device, Arena arena, long bufferSize, int depth, boolean flush, MemorySegment memory, boolean fastRegister) {
            ctx = device.open();
            pd = ctx.allocatePd();
            cq = ctx.createCq(depth * 2 + 8);
            init = new QpInitAttributes(QpType.RC, cq).capacity(depth, depth, 1, 1, 0);
            if (flush) {
                init.allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE);
            }
            if (fastRegister) {
                init.allow(WrOpcode.REG_MR);
            }
            qp = pd.createQp(init);
            buf = memory != null ? memory : arena.allocate(bufferSize, 4096);
            EnumSet<Access> access = flush ? EnumSet.copyOf(ACCESS) : EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                    Access.REMOTE_READ, Access.REMOTE_ATOMIC);
            if (memory != null) {
                access.add(Access.FLUSH_PERSISTENT);
            }
            mr = pd.registerMemory(buf, access);
        }

        void close() {
            qp.close();
            mr.close();
            cq.close();
            pd.close();
            ctx.close();
        }
    }

    Loopback(String providerName, long bufferSize, int depth, Mtu mtu, boolean flush) {
        this(providerName, bufferSize, depth, mtu, flush, false, false);
    }

    /** With {@code persistent}, the responder's buffer is a mapped file registered for persistent FLUSH. */
    Loopback(String providerName, long bufferSize, int depth, Mtu mtu, boolean flush, boolean persistent, boolean fastRegister) {
        Provider provider = Verbs.provider(providerName);
        List<Device> devices = provider.devices();
        if (devices.isEmpty()) {
            throw new IllegalStateException("provider " + providerName + " has no device here"
                    + provider.unavailableReason().map(r -> ": " + r).orElse(""));
        }
        Device da = devices.get(0);
        Device db = devices.size() > 1 ? devices.get(1) : devices.get(0);
        a = new End(da, arena, bufferSize, depth, flush, null, fastRegister);
        b = new End(db, arena, bufferSize, depth, flush, persistent ? mappedFile(bufferSize) : null, fastRegister);
        EnumSet<Access> qpAccess = flush ? EnumSet.copyOf(ACCESS) : EnumSet.of(Access.LOCAL_WRITE,
                Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
        if (persistent) {
            qpAccess.add(Access.FLUSH_PERSISTENT);
        }
        options = new RcOptions().mtu(mtu).access(qpAccess);
        connect(a.qp, b.qp);
        description = providerName + " " + da.name() + " <-> " + db.name() + ", MTU " + mtu.bytes()
                + (persistent ? ", responder memory: mapped file" : "");
        this.flushType = persistent ? FlushType.PERSISTENT : FlushType.GLOBAL;
    }

    private void connect(QueuePair qa, QueuePair qb) {
        QpEndpoint ea = RcConnector.localEndpoint(qa, options);
        QpEndpoint eb = RcConnector.localEndpoint(qb, options);
        RcConnector.bringUp(qa, ea, eb, options);
        RcConnector.bringUp(qb, eb, ea, options);
    }

    /**
     * {@code count} connected requester queue pairs (perftest's {@code -q}): the first is
     * {@code a.qp}, the others are new pairs on the same protection domains and completion
     * queues, so one poll loop reaps them all. The new pairs close with this loopback.
     */
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
            QueuePair qa = a.pd.createQp(a.init);
            QueuePair qb = b.pd.createQp(b.init);
            extraQps.add(qa);
            extraQps.add(qb);
            connect(qa, qb);
            qps[i] = qa;
        }
        requesters = qps;
        return qps;
    }

    private MemorySegment mappedFile(long size) {
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

    /** Polls until one completion arrives; fails on an error status. */
    static void awaitOne(CompletionQueue cq, WorkCompletion[] one) {
        long spins = 0;
        while (cq.poll(one, 1) == 0) {
            if (++spins % 100_000_000L == 0 && spins > 1_000_000_000L) {
                throw new IllegalStateException("no completion");
            }
        }
        if (one[0].status() != WcStatus.SUCCESS) {
            throw new IllegalStateException("operation failed: " + one[0]);
        }
    }

    /** The soft devices' counters that explain a slow run (retransmissions, timeouts, drops); empty for other providers. */
    String softCounters() {
        StringBuilder sb = new StringBuilder();
        for (End e : new End[] {a, b}) {
            if (e.ctx.device() instanceof dev.verbs4j.softroce.SoftDevice sd) {
                var c = sd.engine().counters();
                sb.append(String.format(" %s: out %d, in %d, retransmits %d, timeouts %d, drops %d;", sd.name(),
                        c.get(dev.verbs4j.softroce.engine.Counters.PACKETS_OUT), c.get(dev.verbs4j.softroce.engine.Counters.PACKETS_IN),
                        c.get(dev.verbs4j.softroce.engine.Counters.RETRANSMITS), c.get(dev.verbs4j.softroce.engine.Counters.TIMEOUTS),
                        c.drops()));
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        extraQps.forEach(QueuePair::close);
        a.close();
        b.close();
        arena.close();
    }
}
