package dev.verbs4j.replicatedlog;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcOptions;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One replica: maps a log file, registers all of it for remote writes, atomics and FLUSH
 * of both placement types ({@code IBV_ACCESS_FLUSH_PERSISTENT} needs memory the device can
 * make persistent: the soft provider takes a mapped file and calls force() for it), and
 * serves one client at a time over the side channel. It never posts a work request: the
 * clients' WRITE, ATOMIC WRITE and FLUSH do all the work.
 */
public final class LogServer implements AutoCloseable {
    /** What the file's region and the QPs allow remotely. */
    public static final Set<Access> ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL, Access.FLUSH_PERSISTENT);
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);

    private final DeviceContext context;
    private final Arena arena = Arena.ofShared();
    private final FileChannel channel;
    private final MemorySegment file;
    private final ProtectionDomain pd;
    private final MemoryRegion region;
    /** Held while a client is served: {@link #close} takes it, so the client's queue pair is gone before the domain. */
    private final ReentrantLock serving = new ReentrantLock();
    /** The client being served, which {@link #close} disconnects; null between clients. */
    private volatile Socket client;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Maps and registers {@code path}, an existing formatted log file.
     *
     * @throws dev.verbs4j.VerbsException when the device cannot register it for persistent FLUSH
     */
    public LogServer(DeviceContext context, Path path) throws IOException {
        this.context = context;
        this.channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        ProtectionDomain allocated = null;
        try {
            this.file = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
            allocated = context.allocatePd();
            this.region = allocated.registerMemory(file, ACCESS);
            this.pd = allocated;
        } catch (RuntimeException | IOException e) {
            if (allocated != null) {
                allocated.close();
            }
            arena.close();
            channel.close();
            throw e;
        }
    }

    /** What the file holds now. */
    public Recovery recover() {
        return LogRecovery.recover(file);
    }

    /** The mapped file (the benchmark empties it between runs). */
    MemorySegment file() {
        return file;
    }

    /** Serves clients one after the other until {@code server} or this replica is closed. */
    public void serve(ServerSocket server, Consumer<String> log) throws IOException {
        while (true) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (SocketException serverClosed) {
                return;
            }
            serving.lock();
            try (socket) {
                // Published before closed is read, as close() sets closed before it reads
                // client: one of the two sees the other, so no client is served after close.
                client = socket;
                if (closed.get()) {
                    return;
                }
                serveOne(socket, log);
            } catch (IOException | RuntimeException e) {
                if (!closed.get()) {
                    log.accept("client " + socket.getRemoteSocketAddress() + " failed: " + e.getMessage());
                }
            } finally {
                client = null;
                serving.unlock();
            }
        }
    }

    private void serveOne(Socket socket, Consumer<String> log) throws IOException {
        Recovery recovery = recover();
        socket.setSoTimeout((int) HANDSHAKE_TIMEOUT.toMillis());
        try (CompletionQueue cq = context.createCq(4);
             QueuePair qp = pd.createQp(new QpInitAttributes(QpType.RC, cq).capacity(1, 1, 1, 1, 0))) {
            RcOptions options = new RcOptions().access(ACCESS).shared(region);
            Handshake.serve(socket, qp, options, recovery, LogLayout.dataCapacity(file.byteSize()));
            if (!recovery.intact()) {
                log.accept("refused a client: the log is not intact: " + recovery.problem());
                return;
            }
            log.accept("client " + socket.getRemoteSocketAddress() + " appends from " + recovery);
            // The client appends until it closes the side channel.
            socket.setSoTimeout(0);
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // Nothing else comes over the side channel.
            }
        }
    }

    /**
     * Disconnects the client being served, if any, waits until its queue pair is destroyed,
     * and releases the region, the domain and the file; a client that connects later is
     * refused. A second call does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Socket current = client;
        if (current != null) {
            try {
                current.close();
            } catch (IOException ignored) {
                // Closing unblocks the serving thread whether or not the close went cleanly.
            }
        }
        serving.lock();
        try {
            region.close();
            pd.close();
            arena.close();
            try {
                channel.close();
            } catch (IOException ignored) {
                // Nothing was written through the channel.
            }
        } finally {
            serving.unlock();
        }
    }
}
