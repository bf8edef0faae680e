package dev.verbs4j;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;

/**
 * Connects two RC queue pairs over a TCP side channel, as {@code ibv_rc_pingpong} and
 * perftest do: each side sends its {@link QpEndpoint}, both move their QP to RTS, and a
 * final handshake makes sure neither sends before the other can receive. libibverbs has no
 * counterpart (the tools write this exchange themselves); librdmacm's connection manager
 * ({@link dev.verbs4j.cm.CmId}) is the standard way to do the same.
 * <pre>{@code
 * // server                                      // client
 * QpEndpoint peer = RcConnector.accept(qp, 18515, opts);   QpEndpoint peer = RcConnector.connect(qp, server, opts);
 * }</pre>
 */
public final class RcConnector {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int READY = 'R';

    private RcConnector() {
    }

    /**
     * Connects to a peer waiting in {@link #accept} and brings {@code qp} to RTS.
     *
     * @return what the peer sent
     * @throws UncheckedIOException when the side channel fails
     * @param qp an RC queue pair in RESET
     * @param peer the address of the peer's side channel
     * @param options the values both transitions use
     * @param timeout the bound on connecting the socket and on each read from it
     * @throws VerbsException with the errno of a query or {@code ibv_modify_qp} that failed
     */
    public static QpEndpoint connect(QueuePair qp, InetSocketAddress peer, RcOptions options, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(peer, (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            return exchange(qp, socket, options);
        } catch (IOException e) {
            throw new UncheckedIOException("RC side channel to " + peer + " failed", e);
        }
    }

    /**
     * Waits on {@code server} for one peer that calls {@link #connect}, and brings {@code qp} to RTS.
     *
     * @param qp an RC queue pair in RESET
     * @param server a bound server socket; it stays open
     * @param options the values both transitions use
     * @param timeout the bound on waiting for the peer and on each read from it
     * @return what the peer sent
     * @throws UncheckedIOException when the side channel fails or the wait times out
     * @throws VerbsException with the errno of a query or {@code ibv_modify_qp} that failed
     */
    public static QpEndpoint accept(QueuePair qp, ServerSocket server, RcOptions options, Duration timeout) {
        try {
            server.setSoTimeout((int) timeout.toMillis());
            try (Socket socket = server.accept()) {
                socket.setSoTimeout((int) timeout.toMillis());
                return exchange(qp, socket, options);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("RC side channel on " + server.getLocalSocketAddress() + " failed", e);
        }
    }

    private static QpEndpoint exchange(QueuePair qp, Socket socket, RcOptions options) throws IOException {
        QpEndpoint local = localEndpoint(qp, options);
        OutputStream out = socket.getOutputStream();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        out.write((local.encode() + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        QpEndpoint remote = QpEndpoint.decode(in.readLine());
        bringUp(qp, local, remote, options);
        out.write(READY);
        out.flush();
        if (in.read() != READY) {
            throw new IOException("peer closed the side channel before its QP was ready");
        }
        return remote;
    }

    /**
     * This side's endpoint: QPN, a PSN, the chosen GID and the port's active MTU.
     *
     * @param qp the queue pair
     * @param options the port, GID index, PSN and MTU choices, and the shared region
     * @return the endpoint to send to the peer
     * @throws VerbsException with the errno of {@code ibv_query_port} or {@code ibv_query_gid}
     */
    public static QpEndpoint localEndpoint(QueuePair qp, RcOptions options) {
        DeviceContext ctx = qp.protectionDomain().context();
        PortAttributes port = ctx.queryPort(options.port());
        int gidIndex = options.gidIndex() >= 0 ? options.gidIndex() : chooseGidIndex(ctx, options.port(), port.gidTableLength());
        int psn = options.psn() >= 0 ? options.psn() & 0xffffff : RANDOM.nextInt(1 << 24);
        MemoryRegion shared = options.shared();
        return new QpEndpoint(qp.qpn(), psn, ctx.queryGid(options.port(), gidIndex),
                options.mtu() != null ? options.mtu() : port.activeMtu(), port.lid(),
                shared == null ? 0 : shared.address(), shared == null ? 0 : shared.rkey(),
                shared == null ? 0 : shared.length());
    }

    /**
     * The first IPv4-mapped GID of the port, else the first non-zero one (what RoCEv2 tools pick).
     *
     * @param ctx the device
     * @param port the port number
     * @param tableLength the port's GID table length ({@code ibv_port_attr.gid_tbl_len})
     * @return the index
     * @throws VerbsException {@code ENODATA} when every entry is empty
     */
    public static int chooseGidIndex(DeviceContext ctx, int port, int tableLength) {
        int firstNonZero = -1;
        for (int i = 0; i < tableLength; i++) {
            Gid gid;
            try {
                gid = ctx.queryGid(port, i);
            } catch (VerbsException e) {
                continue;
            }
            if (gid.isIpv4Mapped()) {
                return i;
            }
            if (firstNonZero < 0 && !gid.equals(Gid.ZERO)) {
                firstNonZero = i;
            }
        }
        if (firstNonZero < 0) {
            throw new VerbsException(Errno.ENODATA, "port " + port + " has no GID");
        }
        return firstNonZero;
    }

    /**
     * Moves an RC queue pair from RESET to RTS towards {@code remote}.
     * It makes the three {@code ibv_modify_qp} calls (INIT, RTR, RTS) that {@code ibv_rc_pingpong}
     * makes, with the read-like depth capped by the device's {@code max_qp_rd_atom} and
     * {@code max_qp_init_rd_atom}.
     *
     * @param qp an RC queue pair in RESET
     * @param local this side's endpoint (its PSN becomes the send PSN)
     * @param remote the peer's endpoint (its QPN, PSN, GID and MTU)
     * @param options the values the transitions use
     * @throws VerbsException with the errno of the query or transition that failed
     */
    public static void bringUp(QueuePair qp, QpEndpoint local, QpEndpoint remote, RcOptions options) {
        DeviceContext ctx = qp.protectionDomain().context();
        int gidIndex = options.gidIndex() >= 0 ? options.gidIndex()
                : chooseGidIndex(ctx, options.port(), ctx.queryPort(options.port()).gidTableLength());
        Mtu mtu = options.mtu() != null ? options.mtu() : Mtu.of(Math.min(local.mtu().value(), remote.mtu().value()));
        DeviceAttributes dev = ctx.queryDevice();
        int rdAtomic = Math.max(1, Math.min(options.maxRdAtomic(), Math.min(dev.maxQpRdAtom(), dev.maxQpInitRdAtom())));
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(options.port()).access(options.access()));
        qp.modify(new QpAttributes().state(QpState.RTR)
                .av(new AddressHandleAttributes(remote.gid(), gidIndex, options.port(), 64, 0, 0, 0))
                .pathMtu(mtu).destQpn(remote.qpn()).rqPsn(remote.psn())
                .maxDestRdAtomic(rdAtomic).minRnrTimer(options.minRnrTimer()));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(local.psn()).timeout(options.timeout())
                .retryCount(options.retryCount()).rnrRetry(options.rnrRetry()).maxRdAtomic(rdAtomic));
    }
}
