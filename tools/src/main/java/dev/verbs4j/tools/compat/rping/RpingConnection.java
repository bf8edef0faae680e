package dev.verbs4j.tools.compat.rping;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.tools.cm.CompletionWaiter;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;

/**
 * One side's verbs resources for an rping connection, made on the device the id resolved to,
 * as rping makes them: a queue pair of 16 sends and 2 receives on one completion queue, and
 * one buffer of four areas:
 * <pre>
 * | receive (16) | send (16) | rdma: the sink of the server's READ, the client's WRITE target (size) | start: the client's ping (size) |
 * </pre>
 * Waiting for a completion also watches the id's events, so a peer that disconnects ends
 * the wait instead of leaving it to time out.
 */
final class RpingConnection implements AutoCloseable {
    static final long RECEIVE = 0;
    static final long SEND = 16;
    static final long RDMA = 64;
    private static final int SQ_DEPTH = 16;
    private static final long TIMEOUT_NS = 20_000_000_000L;

    final CmId id;
    final QueuePair qp;
    final MemorySegment buffer;
    final MemoryRegion region;
    final long start;
    private final RpingOptions options;
    private final PrintStream out;
    private final CmEventChannel channel;
    private final DeviceContext ctx;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final Arena arena;
    private final SendWorkRequest sendWr = new SendWorkRequest();
    private final ReceiveWorkRequest recvWr = new ReceiveWorkRequest();
    private final CompletionWaiter completions;
    private boolean disconnected;

    RpingConnection(CmId id, RpingOptions options, PrintStream out) {
        this.id = id;
        this.options = options;
        this.out = out;
        this.channel = id.channel();
        this.start = RDMA + ((options.size + 63L) & ~63L);
        DeviceContext c = null;
        ProtectionDomain p = null;
        CompletionQueue q = null;
        QueuePair made = null;
        Arena a = Arena.ofShared();
        MemoryRegion r = null;
        try {
            c = id.device().open();
            p = c.allocatePd();
            q = c.createCq(SQ_DEPTH * 2);
            QpInitAttributes init = new QpInitAttributes(QpType.RC, q).capacity(SQ_DEPTH, 2, 1, 1, 0);
            if (options.ownQp) {
                made = p.createQp(init);
                id.attachQp(made);
            } else {
                made = id.createQp(p, init);
            }
            MemorySegment b = a.allocate(start + options.size, 4096);
            r = p.registerMemory(b, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
            this.buffer = b;
        } catch (RuntimeException e) {
            closeAll(made, r, q, p, c);
            a.close();
            throw e;
        }
        this.ctx = c;
        this.pd = p;
        this.cq = q;
        this.completions = new CompletionWaiter(q, TIMEOUT_NS);
        this.qp = made;
        this.region = r;
        this.arena = a;
    }

    void postReceive() {
        qp.postRecv(recvWr.wrId(1).buffer(region, RECEIVE, RdmaInfo.BYTES));
    }

    /** Sends the 16-byte message in the send area. */
    void postSend() {
        qp.postSend(sendWr.wrId(2).signaled(true).buffer(region, SEND, RdmaInfo.BYTES).send());
    }

    /** Advertises {@code length} bytes at {@code offset} of this side's buffer. */
    void advertise(long offset, int length) {
        RdmaInfo.write(buffer, SEND, region.address() + offset, region.rkey(), length);
        postSend();
    }

    void postRead(long remoteAddress, int rkey, int length) {
        qp.postSend(sendWr.wrId(3).signaled(true).buffer(region, RDMA, length).rdmaRead(remoteAddress, rkey));
    }

    void postWrite(long remoteAddress, int rkey, int length) {
        qp.postSend(sendWr.wrId(4).signaled(true).buffer(region, RDMA, length).rdmaWrite(remoteAddress, rkey));
    }

    /**
     * Waits for a completion of {@code opcode} (RECV, RDMA_READ or RDMA_WRITE); send
     * completions on the way are checked and passed over. A receive is checked for rping's
     * 16 bytes and the next one posted, as rping does.
     *
     * @return false when the peer disconnected first
     * @throws IllegalStateException for a failed request, a wrong message or a timeout
     */
    boolean await(WcOpcode opcode) {
        while (true) {
            WorkCompletion wc = poll(opcode);
            if (wc == null) {
                return false;
            }
            if (wc.status() == WcStatus.WR_FLUSH_ERR && peerGone()) {
                return false;
            }
            if (wc.status() != WcStatus.SUCCESS) {
                throw new IllegalStateException("rping: a request failed while waiting for " + opcode + ": " + wc);
            }
            if (wc.opcode() == WcOpcode.RECV) {
                if (wc.byteLength() != RdmaInfo.BYTES) {
                    throw new IllegalStateException("rping: received bogus data, size " + wc.byteLength());
                }
                postReceive();
            }
            if (wc.opcode() == opcode) {
                return true;
            }
            if (wc.opcode() != WcOpcode.SEND) {
                throw new IllegalStateException("rping: expected a " + opcode + " completion, got " + wc.opcode());
            }
        }
    }

    /** One completion, or null when the peer disconnected first. */
    private WorkCompletion poll(WcOpcode waitingFor) {
        return completions.next(waitingFor.name(), () -> lookForDisconnect(Duration.ZERO));
    }

    /** Whether the peer disconnected: a DISCONNECTED event came now or before. */
    boolean peerGone() {
        return disconnected || lookForDisconnect(Duration.ofSeconds(2));
    }

    private boolean lookForDisconnect(Duration wait) {
        if (disconnected) {
            return true;
        }
        Optional<CmEvent> event = channel.nextEvent(wait);
        if (event.isEmpty()) {
            return false;
        }
        debug(event.get());
        if (event.get().type() == CmEventType.DISCONNECTED) {
            disconnected = true;
            return true;
        }
        throw new IllegalStateException("rping: unexpected connection event " + event.get());
    }

    void debug(CmEvent event) {
        if (options.debug) {
            out.println("cma_event type " + event.type() + " status " + event.status());
        }
    }

    /** Disconnects unless the peer did, and waits a little for the DISCONNECTED event. */
    void disconnect() {
        if (!disconnected) {
            id.disconnect();
            lookForDisconnect(Duration.ofSeconds(2));
        }
    }

    /** The C string at {@code offset}: the bytes up to the first NUL, at most {@code max}. */
    int stringLength(long offset, int max) {
        for (int i = 0; i < max; i++) {
            if (buffer.get(java.lang.foreign.ValueLayout.JAVA_BYTE, offset + i) == 0) {
                return i;
            }
        }
        return max;
    }

    String text(long offset, int max) {
        int n = stringLength(offset, max);
        return new String(buffer.asSlice(offset, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        closeAll(qp, region, cq, pd, ctx);
        arena.close();
    }

    private static void closeAll(AutoCloseable... resources) {
        for (AutoCloseable c : resources) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    System.err.println("rping: closing " + c + ": " + e.getMessage());
                }
            }
        }
    }
}
