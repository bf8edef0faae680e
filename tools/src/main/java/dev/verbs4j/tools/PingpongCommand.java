package dev.verbs4j.tools;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.Mtu;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.tools.cm.CmSetup;
import dev.verbs4j.tools.cm.CompletionWaiter;
import dev.verbs4j.tools.compat.IbvPingpong;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.EnumSet;

/**
 * {@code verbs4j pingpong}: {@code ibv_rc_pingpong} for any provider. Without a host it is the
 * server, with one the client. The two exchange their RC endpoints over TCP
 * ({@link RcConnector}), then the client sends a message, the server sends one back, N times,
 * every message checked byte for byte. Then the client RDMA WRITEs a pattern into the region
 * the server shared and RDMA READs it back; a last exchange has the server check the written
 * bytes too. The exit status is 0 only when every check passed. With {@code --cm} the two
 * connect through the connection manager instead of the TCP exchange ({@link PingpongCm}).
 *
 * <p>Each side's buffer holds four message-sized areas:
 * <pre>
 * | send | receive | RDMA (server: shared; client: WRITE source) | client: READ target |
 * </pre>
 */
final class PingpongCommand {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final long COMPLETION_TIMEOUT_NS = 10_000_000_000L;
    private static final int CLIENT = 1;
    private static final int SERVER = 2;
    private static final EnumSet<Access> ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
    /** With --all-ops: atomics, ATOMIC WRITE and FLUSH too. */
    private static final EnumSet<Access> ALL_ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL);
    /** The 8-byte word the --all-ops atomics work on, just after the shared data. */
    private static final int WORD_AREA = 64;

    private final PingpongOptions options;
    private final PrintStream out;
    private final int size;
    private final long send;
    private final long receive;
    private final long rdma;
    private final long readBack;
    private final SendWorkRequest sendWr = new SendWorkRequest();
    private final ReceiveWorkRequest recvWr = new ReceiveWorkRequest();
    private long bytesVerified;
    /** The opcode of a send-side completion not yet waited for, else null. */
    private WcOpcode sendDone;
    /** Whether a receive completed that no one waited for yet, and its length. */
    private boolean received;
    private int receivedLength;

    /** With --cm, the connection manager's side of the connection; else null. */
    private PingpongCm cm;
    private DeviceContext ctx;
    private ProtectionDomain pd;
    private CompletionQueue cq;
    private CompletionWaiter completions;
    private QueuePair qp;
    private MemorySegment buffer;
    private MemoryRegion region;
    private MemoryRegion shared;

    private PingpongCommand(PingpongOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.size = options.sizeBytes();
        this.send = 0;
        this.receive = size;
        this.rdma = 2L * size;
        this.readBack = 3L * size;
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (java.util.Arrays.asList(args).contains("--compat")) {
            return IbvPingpong.run(args, out, err);
        }
        PingpongOptions options;
        try {
            options = PingpongOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("verbs4j pingpong: " + e.getMessage());
            err.println(PingpongOptions.USAGE);
            return 2;
        }
        return new PingpongCommand(options, out).run();
    }

    private int run() {
        if (options.cm()) {
            return runThroughCm();
        }
        Device device = DeviceChoice.choose(options.provider(), options.device(), options.address());
        try (Arena arena = Arena.ofShared()) {
            open(device, arena);
            try {
                QpEndpoint peer = connect();
                boolean ok = options.isServer() ? serve(peer) : drive(peer);
                out.printf("pingpong: %,d bytes verified; %s%n", bytesVerified, ok ? "all checks passed" : "CHECKS FAILED");
                out.flush();
                return ok ? 0 : 1;
            } finally {
                close();
            }
        }
    }

    /** {@code --cm}: the connection manager resolves the device, makes the queue pair and connects it. */
    private int runThroughCm() {
        long end = System.nanoTime() + TIMEOUT.toNanos();
        try (CmEventChannel channel = CmSetup.channel(options.provider(), options.address()); Arena arena = Arena.ofShared()) {
            while (true) {
                cm = options.isServer() ? PingpongCm.awaitClient(channel, options, out, null) : PingpongCm.resolve(channel, options);
                try {
                    open(cm.id.device(), arena);
                    postReceive(0);
                    QpEndpoint peer = options.isServer() ? cm.accept(shared, TIMEOUT) : cm.connect(TIMEOUT);
                    if (options.allOps()) {
                        // The connection manager grants REMOTE_WRITE, READ and ATOMIC; FLUSH is granted here, RTS to RTS.
                        qp.modify(new dev.verbs4j.QpAttributes().access(access()));
                    }
                    out.printf("pingpong: connected through the connection manager on %s: local QPN 0x%06x, remote QPN 0x%06x%n",
                            ctx.device().name(), qp.qpn(), peer.qpn());
                    boolean ok = options.isServer() ? serve(peer) : drive(peer);
                    out.printf("pingpong: %,d bytes verified; %s%n", bytesVerified, ok ? "all checks passed" : "CHECKS FAILED");
                    out.flush();
                    cm.disconnect();
                    return ok ? 0 : 1;
                } catch (RuntimeException e) {
                    // The server may still be starting: a refused request is tried again until the timeout.
                    if (options.isServer() || !CmSetup.refused(e) || System.nanoTime() - end > 0) {
                        throw e;
                    }
                } finally {
                    close();
                    cm.close();
                }
                sleep(100);
            }
        }
    }

    private void open(Device device, Arena arena) {
        ctx = device.open();
        pd = ctx.allocatePd();
        cq = ctx.createCq(16);
        completions = new CompletionWaiter(cq, COMPLETION_TIMEOUT_NS);
        QpInitAttributes init = new QpInitAttributes(QpType.RC, cq).capacity(4, 4, 1, 1, 0);
        if (options.allOps()) {
            init.allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE);
        }
        qp = cm != null ? cm.id.createQp(pd, init) : pd.createQp(init);
        buffer = arena.allocate(4L * size + 4096, 4096);
        region = pd.registerMemory(buffer, access());
        if (options.isServer()) {
            shared = pd.registerMemory(buffer.asSlice(rdma, wordOffset() + WORD_AREA), access());
        }
    }

    private EnumSet<Access> access() {
        return options.allOps() ? ALL_ACCESS : ACCESS;
    }

    /** Where, from the start of the shared data, the atomics' word lies (8-byte aligned). */
    private long wordOffset() {
        return (size + 7L) & ~7L;
    }

    private QpEndpoint connect() {
        RcOptions rc = new RcOptions().access(access()).mtu(options.mtu()).shared(shared);
        QpEndpoint peer;
        if (options.isServer()) {
            try (ServerSocket server = new ServerSocket(options.port())) {
                out.printf("pingpong: server on device %s, waiting for a client on TCP port %d%n", ctx.device().name(), options.port());
                out.flush();
                peer = RcConnector.accept(qp, server, rc, TIMEOUT);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot listen on TCP port " + options.port(), e);
            }
        } else {
            peer = connectWithRetry(rc);
        }
        // A receive cannot be posted in RESET, and RcConnector takes the QP from RESET to RTS in
        // one call; a first message that comes before this receive draws an RNR NAK and is
        // sent again (the RNR retry count is 7: without limit).
        postReceive(0);
        out.printf("pingpong:  local QPN 0x%06x, GID %s%n", qp.qpn(), RcConnector.localEndpoint(qp, rc).gid());
        QpEndpoint local = RcConnector.localEndpoint(qp, rc);
        Mtu path = options.mtu() != null ? options.mtu() : Mtu.of(Math.min(local.mtu().value(), peer.mtu().value()));
        out.printf("pingpong: remote QPN 0x%06x, PSN 0x%06x, GID %s; path MTU %d%n", peer.qpn(), peer.psn(), peer.gid(),
                path.bytes());
        return peer;
    }

    /** The server may still be starting: retry a refused connection until the timeout. */
    private QpEndpoint connectWithRetry(RcOptions rc) {
        InetSocketAddress server = new InetSocketAddress(options.server(), options.port());
        long end = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            try {
                return RcConnector.connect(qp, server, rc, TIMEOUT);
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof ConnectException) || System.nanoTime() > end) {
                    throw e;
                }
                sleep(100);
            }
        }
    }

    // ---- the client --------------------------------------------------------------------------

    private boolean drive(QpEndpoint peer) {
        long total = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        boolean ok = true;
        for (int i = 0; i < options.iterations() && ok; i++) {
            fill(send, i, CLIENT);
            // The round trip: from posting the message to the reply's completion (the byte
            // checks on either side are outside it).
            long start = System.nanoTime();
            qp.postSend(sendWr.wrId(1).signaled(true).buffer(region, send, size).send());
            ok = await(WcOpcode.SEND) && awaitReceive();
            long took = System.nanoTime() - start;
            ok = ok && checkReceived(i, SERVER);
            total += took;
            min = Math.min(min, took);
            max = Math.max(max, took);
        }
        if (ok) {
            out.printf("pingpong: %,d round trips of %,d bytes: average %.2f us, min %.2f us, max %.2f us%n",
                    options.iterations(), size, total / 1e3 / options.iterations(), min / 1e3, max / 1e3);
        }
        ok = ok && writeAndReadBack(peer);
        ok = ok && (!options.allOps() || atomicsFlushAndAtomicWrite(peer));
        // The last round trip: the server checks the written bytes and answers with its verdict.
        int last = options.iterations();
        ok = ok && sendMessage(last, CLIENT) && receiveMessage(last, SERVER);
        return ok;
    }

    private boolean writeAndReadBack(QpEndpoint peer) {
        if (peer.length() < size || peer.rkey() == 0) {
            out.printf("pingpong: the server shared %d bytes, fewer than %d%n", peer.length(), size);
            return false;
        }
        fill(rdma, options.iterations() + 1, CLIENT);
        buffer.asSlice(readBack, size).fill((byte) 0);
        qp.postSend(sendWr.wrId(2).signaled(true).buffer(region, rdma, size).rdmaWrite(peer.address(), peer.rkey()));
        if (!await(WcOpcode.RDMA_WRITE)) {
            return false;
        }
        qp.postSend(sendWr.wrId(3).signaled(true).buffer(region, readBack, size).rdmaRead(peer.address(), peer.rkey()));
        if (!await(WcOpcode.RDMA_READ)) {
            return false;
        }
        long mismatch = buffer.asSlice(rdma, size).mismatch(buffer.asSlice(readBack, size));
        if (mismatch >= 0) {
            out.printf("pingpong: RDMA READ returned other bytes than the RDMA WRITE stored, first at offset %d%n", mismatch);
            return false;
        }
        bytesVerified += size;
        out.printf("pingpong: RDMA WRITE of %,d bytes into the server's region, RDMA READ back: identical%n", size);
        return true;
    }

    /**
     * On the server's word: FETCH_ADD, COMPARE_AND_SWAP, ATOMIC WRITE, an RDMA READ of the
     * word, and FLUSH of the whole shared range; each result checked. The server checks the
     * final word too.
     */
    private boolean atomicsFlushAndAtomicWrite(QpEndpoint peer) {
        long word = peer.address() + wordOffset();
        long result = readBack;
        buffer.set(java.lang.foreign.ValueLayout.JAVA_LONG, result, -1);
        qp.postSend(sendWr.wrId(4).signaled(true).buffer(region, result, 8).fetchAndAdd(word, peer.rkey(), 5));
        if (!await(WcOpcode.FETCH_ADD) || !word(result, 0, "FETCH_ADD returned")) {
            return false;
        }
        qp.postSend(sendWr.wrId(5).signaled(true).buffer(region, result, 8).compareAndSwap(word, peer.rkey(), 5, 0x1234));
        if (!await(WcOpcode.COMP_SWAP) || !word(result, 5, "COMPARE_AND_SWAP returned")) {
            return false;
        }
        qp.postSend(sendWr.wrId(6).signaled(true).atomicWrite(word, peer.rkey(), FINAL_WORD));
        if (!await(WcOpcode.ATOMIC_WRITE)) {
            return false;
        }
        qp.postSend(sendWr.wrId(7).signaled(true).buffer(region, result, 8).rdmaRead(word, peer.rkey()));
        if (!await(WcOpcode.RDMA_READ) || !word(result, FINAL_WORD, "the word read back after ATOMIC WRITE is")) {
            return false;
        }
        qp.postSend(sendWr.wrId(8).signaled(true).flush(peer.address(), peer.rkey(), peer.length(),
                dev.verbs4j.FlushType.GLOBAL, dev.verbs4j.FlushLevel.RANGE));
        if (!await(WcOpcode.FLUSH)) {
            return false;
        }
        out.println("pingpong: FETCH_ADD, COMPARE_AND_SWAP, ATOMIC WRITE and FLUSH on the server's region: results as expected");
        return true;
    }

    private static final long FINAL_WORD = 0x0123456789abcdefL;

    private boolean word(long offset, long expected, String what) {
        long actual = buffer.get(java.lang.foreign.ValueLayout.JAVA_LONG, offset);
        if (actual != expected) {
            out.printf("pingpong: %s 0x%x, expected 0x%x%n", what, actual, expected);
            return false;
        }
        return true;
    }

    // ---- the server --------------------------------------------------------------------------

    private boolean serve(QpEndpoint peer) {
        boolean ok = true;
        for (int i = 0; i < options.iterations() && ok; i++) {
            ok = receiveMessage(i, CLIENT) && sendMessage(i, SERVER);
        }
        int last = options.iterations();
        ok = ok && receiveMessage(last, CLIENT);
        if (ok) {
            // By now the client has written into the shared region and read it back.
            ok = matches(rdma, last + 1, CLIENT);
            if (ok && options.allOps()) {
                ok = word(rdma + wordOffset(), FINAL_WORD, "the shared word after the client's operations is");
            }
            if (ok) {
                bytesVerified += size;
                out.printf("pingpong: the client's RDMA WRITE of %,d bytes arrived intact%n", size);
            } else {
                out.println("pingpong: the shared region does not hold what the client wrote");
            }
            ok = sendMessage(last, ok ? SERVER : 0) && ok;
        }
        if (ok) {
            out.printf("pingpong: served %,d round trips of %,d bytes%n", options.iterations(), size);
        }
        return ok;
    }

    // ---- messages ------------------------------------------------------------------------------

    private boolean sendMessage(int iteration, int side) {
        fill(send, iteration, side);
        qp.postSend(sendWr.wrId(1).signaled(true).buffer(region, send, size).send());
        return await(WcOpcode.SEND);
    }

    /** Waits for message {@code iteration} from {@code side}, checks it, and posts the next receive. */
    private boolean receiveMessage(int iteration, int side) {
        return awaitReceive() && checkReceived(iteration, side);
    }

    private boolean checkReceived(int iteration, int side) {
        if (receivedLength != size) {
            out.printf("pingpong: message %d has %d bytes, expected %d%n", iteration, receivedLength, size);
            return false;
        }
        if (!matches(receive, iteration, side)) {
            out.printf("pingpong: message %d has other bytes than sent%n", iteration);
            return false;
        }
        bytesVerified += size;
        postReceive(iteration + 1);
        return true;
    }

    private void postReceive(long id) {
        qp.postRecv(recvWr.wrId(id).buffer(region, receive, size));
    }

    /**
     * Waits for the completion of the one outstanding send-side request. A receive may complete
     * first (an acknowledgement lost and resent, the peer's next message already in): it is
     * noted for {@link #awaitReceive} and waiting goes on.
     */
    private boolean await(WcOpcode expected) {
        while (sendDone == null) {
            if (!pollOnce(expected)) {
                return false;
            }
        }
        WcOpcode done = sendDone;
        sendDone = null;
        if (done != expected) {
            out.println("pingpong: expected a " + expected + " completion, got " + done);
            return false;
        }
        return true;
    }

    private boolean awaitReceive() {
        while (!received) {
            if (!pollOnce(WcOpcode.RECV)) {
                return false;
            }
        }
        received = false;
        return true;
    }

    /** Takes one completion (false after a timeout or an error status). */
    private boolean pollOnce(WcOpcode waitingFor) {
        WorkCompletion wc;
        try {
            wc = completions.next(waitingFor.name());
        } catch (IllegalStateException e) {
            out.println("pingpong: " + e.getMessage());
            return false;
        }
        if (wc.status() != WcStatus.SUCCESS) {
            out.println("pingpong: a request failed: " + wc);
            return false;
        }
        if (wc.opcode() == WcOpcode.RECV) {
            received = true;
            receivedLength = wc.byteLength();
        } else {
            sendDone = wc.opcode();
        }
        return true;
    }

    // ---- patterns ------------------------------------------------------------------------------

    /** Message {@code iteration} from {@code side}: bytes no other message has at the same offset. */
    private static byte pattern(int iteration, int side, long offset) {
        long v = (iteration + 1L) * 0x9E3779B97F4A7C15L + side * 0xC2B2AE3D27D4EB4FL + (offset >>> 3) * 0x165667B19E3779F9L;
        return (byte) (v >>> (8 * (offset & 7)));
    }

    private void fill(long at, int iteration, int side) {
        for (long j = 0; j < size; j++) {
            buffer.set(ValueLayout.JAVA_BYTE, at + j, pattern(iteration, side, j));
        }
    }

    private boolean matches(long at, int iteration, int side) {
        for (long j = 0; j < size; j++) {
            if (buffer.get(ValueLayout.JAVA_BYTE, at + j) != pattern(iteration, side, j)) {
                return false;
            }
        }
        return true;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void close() {
        for (AutoCloseable c : new AutoCloseable[] {qp, shared, region, cq, pd, ctx}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    out.println("pingpong: closing " + c + ": " + e.getMessage());
                }
            }
        }
    }
}
