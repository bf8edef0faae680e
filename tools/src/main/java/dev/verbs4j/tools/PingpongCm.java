package dev.verbs4j.tools;

import dev.verbs4j.MemoryRegion;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.cm.CmEvent;
import dev.verbs4j.cm.CmEventChannel;
import dev.verbs4j.cm.CmEventType;
import dev.verbs4j.cm.CmId;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.tools.cm.CmSetup;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * {@code verbs4j pingpong --cm}: the connection through the connection manager instead of
 * the TCP exchange. The server listens on the port (on {@code --address}, else on every
 * address) and accepts with its shared region in the private data of its reply: address,
 * rkey and length, 16 bytes in network byte order. The client resolves the server, connects
 * and reads them from the ESTABLISHED event. The id makes the queue pair and takes it to RTS.
 */
final class PingpongCm implements AutoCloseable {
    /** The size of the shared region's description in the accept's private data. */
    static final int REGION_BYTES = 16;
    private static final ConnectionParameters PARAMETERS = new ConnectionParameters().responderResources(1)
            .initiatorDepth(1).retryCount(7).rnrRetryCount(7);

    private final CmEventChannel channel;
    private final CmId listener;
    final CmId id;
    /** The server's: the client's request, whose parameters name its queue pair. */
    private final CmEvent request;

    private PingpongCm(CmEventChannel channel, CmId listener, CmId id, CmEvent request) {
        this.channel = channel;
        this.listener = listener;
        this.id = id;
        this.request = request;
    }

    /** The server's first step: waits for a client's request (up to {@code timeout}). */
    static PingpongCm awaitClient(CmEventChannel channel, PingpongOptions options, PrintStream out, Duration timeout) {
        CmId listener = CmSetup.listen(channel, CmSetup.address(options.address(), options.port()), 1);
        try {
            out.printf("pingpong: server waiting for a client through the connection manager on port %d%n", options.port());
            out.flush();
            CmEvent request = CmSetup.awaitRequest(channel, timeout);
            CmSetup.checkDevice(request.id(), options.device());
            return new PingpongCm(channel, listener, request.id(), request);
        } catch (RuntimeException e) {
            listener.close();
            throw e;
        }
    }

    /** The client's first step: an id resolved to the server. */
    static PingpongCm resolve(CmEventChannel channel, PingpongOptions options) {
        InetSocketAddress source = options.address() == null ? null : CmSetup.address(options.address(), 0);
        CmId id = CmSetup.resolve(channel, source, CmSetup.address(options.server(), options.port()));
        try {
            CmSetup.checkDevice(id, options.device());
        } catch (RuntimeException e) {
            id.close();
            throw e;
        }
        return new PingpongCm(channel, null, id, null);
    }

    /** The server accepts, offering {@code shared}; returns the client's end (its QPN). */
    QpEndpoint accept(MemoryRegion shared, Duration timeout) {
        byte[] region = ByteBuffer.allocate(REGION_BYTES).putLong(shared.address()).putInt(shared.rkey())
                .putInt((int) shared.length()).array();
        id.accept(new ConnectionParameters().set(PARAMETERS).privateData(region));
        channel.expect(CmEventType.ESTABLISHED, timeout);
        return endpoint(request, 0, 0, 0);
    }

    /** The client connects; returns the server's end with the region its reply described. */
    QpEndpoint connect(Duration timeout) {
        id.connect(PARAMETERS);
        CmEvent established = channel.expect(CmEventType.ESTABLISHED, timeout);
        byte[] data = established.privateData();
        if (data.length < REGION_BYTES) {
            throw new IllegalStateException("the server's reply carries " + data.length + " bytes of private data, not the "
                    + REGION_BYTES + " that describe its region");
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        return endpoint(established, b.getLong(), b.getInt(), Integer.toUnsignedLong(b.getInt()));
    }

    private QpEndpoint endpoint(CmEvent event, long address, int rkey, long length) {
        return new QpEndpoint(event.parameters().qpNumber(), 0, null, Mtu.MTU_256, 0, address, rkey, length);
    }

    /** Disconnects and waits briefly for the event (the peer may have disconnected first). */
    void disconnect() {
        id.disconnect();
        channel.nextEvent(Duration.ofSeconds(2));
    }

    @Override
    public void close() {
        id.close();
        if (listener != null) {
            listener.close();
        }
    }
}
