package dev.verbs4j.tools.compat.perftest;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * perftest's TCP side channel without {@code -R} (perftest_communication.c): every step is an
 * exchange of equal-sized messages in which the client writes first and reads second, the
 * server the other way round, so each side always knows what comes next. Each message goes
 * out in one write, as perftest's {@code read} expects it whole.
 */
final class SideChannel extends PerftestChannel {
    private static final long CONNECT_RETRY_NS = 30_000_000_000L;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final boolean client;

    private SideChannel(Socket socket, boolean client) throws IOException {
        this.socket = socket;
        this.client = client;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** The client's side: connects to the server, retrying while it does not listen yet. */
    static SideChannel connect(String host, int port) {
        long end = System.nanoTime() + CONNECT_RETRY_NS;
        while (true) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(host, port), 5_000);
                return new SideChannel(socket, true);
            } catch (ConnectException e) {
                closeQuietly(socket);
                if (System.nanoTime() - end > 0) {
                    throw new UncheckedIOException("no perftest server on " + host + ":" + port, e);
                }
                pause();
            } catch (IOException e) {
                closeQuietly(socket);
                throw new UncheckedIOException("cannot connect to " + host + ":" + port, e);
            }
        }
    }

    /** The server's side: waits for one client on {@code port}, as long as it takes (as perftest does). */
    static SideChannel accept(int port) {
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(port));
            return new SideChannel(server.accept(), false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve on TCP port " + port, e);
        }
    }

    @Override
    byte[] exchange(byte[] mine) {
        byte[] theirs = new byte[mine.length];
        try {
            if (client) {
                out.write(mine);
                out.flush();
                in.readFully(theirs);
            } else {
                in.readFully(theirs);
                out.write(mine);
                out.flush();
            }
            return theirs;
        } catch (EOFException e) {
            throw new UncheckedIOException("the perftest peer closed the connection", e);
        } catch (IOException e) {
            throw new UncheckedIOException("the side channel failed", e);
        }
    }

    /** {@code ctx_hand_shake}: one queue pair's key message each way, as text. */
    @Override
    KeyMessage keys(KeyMessage mine) {
        boolean withGid = mine.gid() != null;
        return KeyMessage.decode(exchange(mine.encode()), withGid);
    }

    /**
     * {@code ctx_close_connection}: a last key exchange, then "done" with its NUL, which
     * nobody reads; then the socket closes.
     */
    @Override
    void finish(KeyMessage mine) {
        keys(mine);
        try {
            out.write("done\0".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the side channel failed", e);
        }
        close();
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is left to do
        }
    }
}
