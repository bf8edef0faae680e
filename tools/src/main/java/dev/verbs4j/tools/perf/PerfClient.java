package dev.verbs4j.tools.perf;

import dev.verbs4j.Device;
import dev.verbs4j.FlushType;
import dev.verbs4j.Mtu;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * The requester of a perf run whose responder is {@code verbs4j perf --server} in another
 * process or on another host, as perftest's client is: it connects over TCP, says what the
 * run needs, exchanges one endpoint per queue pair and tells the server when each
 * measurement starts and ends.
 */
final class PerfClient extends PerfPair {
    /** How long a server that is still starting is waited for, and any answer of the server. */
    static final long TIMEOUT_MS = 30_000;

    private final Arena arena;
    private final ControlChannel control;
    private final QueuePair[] requesters;
    /** Whether a run has begun and not ended: closing then leaves the server to find the channel gone. */
    private boolean inRun;

    private PerfClient(Arena arena, End a, ControlChannel control, QpEndpoint server, QueuePair[] requesters,
                       String description, boolean persistent) {
        super(a, server.address(), server.rkey(), description, persistent ? FlushType.PERSISTENT : FlushType.GLOBAL);
        this.arena = arena;
        this.control = control;
        this.requesters = requesters;
    }

    /**
     * Connects to the server at {@code host:port} with {@code qps} queue pairs on {@code device}.
     *
     * @param persistent whether the server's region is a mapped file, registered for persistent FLUSH
     */
    static PerfClient connect(Device device, String host, int port, long bufferSize, int depth, Mtu mtu, int qps,
                              boolean persistent) {
        Arena arena = Arena.ofShared();
        End a = null;
        ControlChannel control = null;
        try {
            a = new End(device, arena, bufferSize, depth, true, null, false);
            control = new ControlChannel(connectWithRetry(new InetSocketAddress(host, port)));
            control.send("SETUP " + qps + " " + depth + " " + bufferSize + " " + (persistent ? 1 : 0) + " " + mtu.bytes());
            String[] setup = control.expect("SETUP", TIMEOUT_MS);
            String serverDevice = setup.length > 1 ? setup[1] : "?";
            QueuePair[] qpList = new QueuePair[qps];
            qpList[0] = a.qp;
            for (int i = 1; i < qps; i++) {
                qpList[i] = a.newQp();
            }
            RcOptions options = new RcOptions().mtu(mtu).access(End.access(true, persistent)).shared(a.mr);
            QpEndpoint first = control.exchangeEndpoints(qpList, options, TIMEOUT_MS);
            control.send("READY");
            control.expect("READY", TIMEOUT_MS);
            String description = device.providerName() + " " + device.name() + " -> " + serverDevice + " at " + host + ":" + port
                    + ", MTU " + mtu.bytes() + (persistent ? ", responder memory: mapped file" : "");
            return new PerfClient(arena, a, control, first, qpList, description, persistent);
        } catch (RuntimeException | IOException e) {
            if (control != null) {
                control.close();
            }
            if (a != null) {
                a.close();
            }
            arena.close();
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot reach the perf server at " + host + ":" + port, io);
            }
            throw (RuntimeException) e;
        }
    }

    /** The server may still be starting: a refused connection is tried again until the timeout. */
    private static Socket connectWithRetry(InetSocketAddress server) throws IOException {
        long end = System.nanoTime() + TIMEOUT_MS * 1_000_000;
        while (true) {
            Socket socket = new Socket();
            try {
                socket.connect(server, (int) TIMEOUT_MS);
                socket.setTcpNoDelay(true);
                return socket;
            } catch (ConnectException e) {
                socket.close();
                if (System.nanoTime() > end) {
                    throw e;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    @Override
    End responder() {
        return null;
    }

    @Override
    QueuePair[] requesters(int count) {
        if (count != requesters.length) {
            throw new IllegalStateException("connected with " + requesters.length + " queue pairs, asked for " + count);
        }
        return requesters;
    }

    @Override
    void begin(String test, int size, int count) {
        control.send("RUN " + test + " " + size + " " + count);
        inRun = true;
        control.expect("GO", TIMEOUT_MS);
    }

    @Override
    void end() {
        control.send("END");
        control.expect("DONE", TIMEOUT_MS);
        inRun = false;
    }

    @Override
    String softCounters() {
        return SoftCounterLine.of(a);
    }

    @Override
    public void close() {
        if (!inRun) {
            try {
                control.send("BYE");
            } catch (UncheckedIOException e) {
                // The server is gone already; there is nothing to tell it.
            }
        }
        control.close();
        a.close();
        arena.close();
    }
}
