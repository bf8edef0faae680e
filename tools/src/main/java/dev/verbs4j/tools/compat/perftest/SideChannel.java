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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * perftest's TCP side channel without {@code -R} (perftest_communication.c): every step is an
 * exchange of equal-sized messages in which the client writes first and reads second, the
 * server the other way round, so each side always knows what comes next. Each message goes
 * out in one write, as perftest's {@code read} expects it whole.
 */
final class SideChannel implements AutoCloseable {
    /** The perftest version we present ourselves as (Debian's perftest 4.5-0.17 says 6.06). */
    static final String VERSION = "6.06";
    /** {@code MAX_VERSION}: the version travels as a NUL-padded string of this size. */
    static final int VERSION_BYTES = 16;
    /** perftest refuses peers older than this ({@code check_version_compatibility}). */
    static final double OLDEST_PEER = 5.70;
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

    boolean isClient() {
        return client;
    }

    /** Sends {@code mine} and returns the peer's message of the same size, in perftest's order. */
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

    /** {@code exchange_versions} and {@code check_version_compatibility}: returns the peer's version. */
    double versions() {
        byte[] mine = Arrays.copyOf(VERSION.getBytes(StandardCharsets.US_ASCII), VERSION_BYTES);
        double theirs = leadingNumber(cString(exchange(mine)));
        if (!(theirs >= OLDEST_PEER)) {
            throw new IllegalStateException("the peer is perftest " + theirs + "; perftest's exchange needs "
                    + OLDEST_PEER + " or later on both sides");
        }
        return theirs;
    }

    /**
     * {@code check_sys_data}: page size (the cycle buffer) and cache line size, each a 4-byte
     * big-endian int in an exchange of its own; both sides go on with the larger of each.
     *
     * @return {cycle buffer, cache line}
     */
    int[] sysData(int cycleBuffer, int cacheLine) {
        int theirCycle = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cycleBuffer).array())).getInt();
        int theirLine = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cacheLine).array())).getInt();
        return new int[] {Math.max(cycleBuffer, theirCycle), Math.max(cacheLine, theirLine)};
    }

    /**
     * {@code check_mtu}: the {@code enum ibv_mtu} value (1 for 256 .. 5 for 4096) as decimal
     * text in 2 bytes; both sides use the smaller of the two when the peer's is valid.
     */
    int mtu(int mineEnum) {
        byte[] mine = Arrays.copyOf(Integer.toString(mineEnum).getBytes(StandardCharsets.US_ASCII), 2);
        double theirs = leadingNumber(cString(exchange(mine)));
        int peer = (int) theirs;
        return peer >= 1 && peer <= 5 && peer < mineEnum ? peer : mineEnum;
    }

    /** {@code ctx_hand_shake}: one queue pair's key message each way. */
    KeyMessage keys(KeyMessage mine) {
        boolean withGid = mine.gid() != null;
        return KeyMessage.decode(exchange(mine.encode()), withGid);
    }

    /** {@code xchg_bw_reports}: returns the peer's report. */
    BwReport reports(BwReport mine) {
        byte[][] theirs = new byte[BwReport.FIELDS][];
        for (int i = 0; i < BwReport.FIELDS; i++) {
            theirs[i] = exchange(mine.field(i));
        }
        return BwReport.of(theirs);
    }

    /**
     * {@code ctx_close_connection}: a last key exchange, then "done" with its NUL, which
     * nobody reads; then the socket closes.
     */
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

    /** The text before the first NUL. */
    static String cString(byte[] bytes) {
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.US_ASCII);
    }

    /** What C's {@code atof}/{@code strtol} make of a string: its leading number, or 0. */
    static double leadingNumber(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*[-+]?\\d*(\\.\\d*)?").matcher(text);
        if (!m.find() || m.group().isBlank() || m.group().strip().matches("[-+]?\\.?")) {
            return 0;
        }
        return Double.parseDouble(m.group().strip());
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
