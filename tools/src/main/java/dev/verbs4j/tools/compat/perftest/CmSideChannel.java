package dev.verbs4j.tools.compat.perftest;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Device;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.tools.cm.CmSetup;
import dev.verbs4j.tools.cm.CompletionWaiter;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;

/**
 * perftest's exchange with {@code -R} (perftest_communication.c, {@code rdma_client_connect},
 * {@code rdma_server_connect}, {@code rdma_write_data}, {@code rdma_read_data}): an RC
 * connection of its own through the connection manager on perftest's port, carrying each
 * step as one SEND of at most {@link KeyStruct#BYTES} bytes. Each side keeps one receive of
 * that size posted, posting the next as it takes a message, so the lock-step order alone
 * keeps every SEND matched with a receive. The server stops listening once the connection
 * is up: the test's own connections use the same port.
 */
final class CmSideChannel extends PerftestChannel {
    private static final long COMPLETION_TIMEOUT_NS = 60_000_000_000L;
    private static final long CONNECT_RETRY_NS = 30_000_000_000L;
    private static final long RECEIVE = 0;
    private static final long SEND = 64;

    private final CmEventChannel channel;
    private final CmId id;
    private final boolean client;
    private final int gidIndex;
    private final Arena arena = Arena.ofShared();
    private final DeviceContext ctx;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final QueuePair qp;
    private final MemoryRegion region;
    private final MemorySegment buffer;
    private final CompletionWaiter sends;
    private final CompletionWaiter receives;

    private CmSideChannel(CmEventChannel channel, CmId id, boolean client, int gidIndex) {
        this.channel = channel;
        this.id = id;
        this.client = client;
        this.gidIndex = gidIndex;
        DeviceContext c = null;
        ProtectionDomain p = null;
        CompletionQueue s = null;
        CompletionQueue r = null;
        QueuePair q = null;
        MemoryRegion m = null;
        try {
            c = id.device().open();
            p = c.allocatePd();
            s = c.createCq(2);
            r = c.createCq(2);
            q = id.createQp(p, new QpInitAttributes(QpType.RC, s, r).capacity(1, 1, 1, 1, 0));
            this.buffer = arena.allocate(2 * 64, 64);
            m = p.registerMemory(buffer, EnumSet.of(Access.LOCAL_WRITE));
        } catch (RuntimeException e) {
            closeAll(q, m, s, r, p, c);
            arena.close();
            throw e;
        }
        this.ctx = c;
        this.pd = p;
        this.sendCq = s;
        this.recvCq = r;
        this.qp = q;
        this.region = m;
        this.sends = new CompletionWaiter(sendCq, COMPLETION_TIMEOUT_NS);
        this.receives = new CompletionWaiter(recvCq, COMPLETION_TIMEOUT_NS);
        postReceive();
    }

    /** perftest's connection parameters: no READs in flight on the exchange, 7 retries of each kind. */
    private static ConnectionParameters parameters() {
        return new ConnectionParameters().responderResources(0).initiatorDepth(0).retryCount(7).rnrRetryCount(7);
    }

    /**
     * The client's side: connects to the perftest server at {@code server}, trying again
     * while the server refuses (it may still be starting).
     *
     * @param source the local address to resolve from, or null
     */
    static CmSideChannel connect(CmEventChannel channel, InetSocketAddress source, InetSocketAddress server, String device,
                                 int gidIndex) {
        long end = System.nanoTime() + CONNECT_RETRY_NS;
        while (true) {
            CmId id = CmSetup.resolve(channel, source, server);
            CmSideChannel made = null;
            try {
                CmSetup.checkDevice(id, device);
                made = new CmSideChannel(channel, id, true, gidIndex);
                id.connect(parameters());
                channel.expect(CmEventType.ESTABLISHED, CmSetup.EVENT_TIMEOUT);
                return made;
            } catch (RuntimeException e) {
                if (made != null) {
                    made.release();
                } else {
                    id.close();
                }
                if (!CmSetup.refused(e) || System.nanoTime() - end > 0) {
                    throw e;
                }
            }
            pause();
        }
    }

    /**
     * The server's side: waits for one client on {@code address} as long as it takes, as
     * perftest does; says so on {@code out} once it listens.
     */
    static CmSideChannel accept(CmEventChannel channel, InetSocketAddress address, String device, int gidIndex,
                                java.io.PrintStream out) {
        try (CmId listener = CmSetup.listen(channel, address, 1)) {
            out.printf(" listening for the perftest client through the connection manager on %s%n", address);
            out.flush();
            CmEvent request = CmSetup.awaitRequest(channel, null);
            CmSideChannel made = null;
            try {
                CmSetup.checkDevice(request.id(), device);
                made = new CmSideChannel(channel, request.id(), false, gidIndex);
                request.id().accept(parameters());
                channel.expect(CmEventType.ESTABLISHED, CmSetup.EVENT_TIMEOUT);
                return made;
            } catch (RuntimeException e) {
                if (made != null) {
                    made.release();
                } else {
                    request.id().close();
                }
                throw e;
            }
        }
    }

    /** The device the connection came up on: the test's own queue pairs go there too. */
    Device device() {
        return id.device();
    }

    @Override
    byte[] exchange(byte[] mine) {
        if (mine.length > KeyStruct.BYTES) {
            throw new IllegalArgumentException("perftest's rdma_cm exchange carries at most " + KeyStruct.BYTES + " bytes");
        }
        if (client) {
            send(mine);
            return receive(mine.length);
        }
        byte[] theirs = receive(mine.length);
        send(mine);
        return theirs;
    }

    @Override
    KeyMessage keys(KeyMessage mine) {
        return KeyStruct.decode(exchange(KeyStruct.encode(mine, gidIndex)));
    }

    /** With {@code -R} the last step is a key exchange alone: no "done" follows. */
    @Override
    void finish(KeyMessage mine) {
        keys(mine);
    }

    private void send(byte[] message) {
        MemorySegment.copy(message, 0, buffer, ValueLayout.JAVA_BYTE, SEND, message.length);
        qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(region, SEND, message.length).send());
        WorkCompletion wc = sends.nextSuccessful("the exchange's SEND");
        if (wc.opcode() != WcOpcode.SEND) {
            throw new IllegalStateException("the exchange's queue pair completed a " + wc.opcode() + ", not a SEND");
        }
    }

    private byte[] receive(int length) {
        WorkCompletion wc = receives.nextSuccessful("the perftest peer's message");
        if (wc.byteLength() != length) {
            throw new IllegalStateException("the perftest peer sent " + wc.byteLength() + " bytes where " + length
                    + " belong: the two sides are at different steps");
        }
        byte[] theirs = buffer.asSlice(RECEIVE, length).toArray(ValueLayout.JAVA_BYTE);
        postReceive();
        return theirs;
    }

    private void postReceive() {
        qp.postRecv(new ReceiveWorkRequest().wrId(1).buffer(region, RECEIVE, KeyStruct.BYTES));
    }

    /** Disconnects (the peer may have already) and frees everything. */
    @Override
    public void close() {
        try {
            id.disconnect();
            channel.nextEvent(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            System.err.println("verbs4j perf --compat: disconnecting the exchange: " + e.getMessage());
        }
        release();
    }

    private void release() {
        closeAll(qp, region, sendCq, recvCq, pd, id, ctx);
        arena.close();
    }

    private static void closeAll(AutoCloseable... resources) {
        for (AutoCloseable c : resources) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("verbs4j perf --compat: closing " + c + ": " + e.getMessage());
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
