package dev.verbs4j.tools.perf;

import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The TCP side channel between {@code perf --server} and its client: one line per message,
 * a keyword and its arguments. A daemon thread reads the lines as they come, so the serving
 * side can look for the next one between polls without blocking, and learns of a peer
 * that went away.
 * <pre>
 * client                                        server
 * SETUP qps depth buffer-bytes persistent mtu  →
 *                                              ← SETUP device-description
 * EP endpoint (one per queue pair)             ↔ EP endpoint (one per queue pair)
 * READY                                        ↔ READY
 * RUN test size count                          →
 *                                              ← GO        (the server is ready for them)
 * END                                          →           (the client has finished them)
 *                                              ← DONE      (so has the server)
 * BYE                                          →
 * </pre>
 */
final class ControlChannel implements AutoCloseable {
    /** What the reader queues when the peer closes the channel or it fails. */
    private static final String GONE = "\0gone";

    private final Socket socket;
    private final OutputStream out;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private volatile String failure = "the peer closed the channel";
    /** Set by the reader when the channel closes or fails, whatever lines are still queued. */
    private volatile boolean gone;

    ControlChannel(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        Thread.ofPlatform().daemon().name("perf control reader").start(() -> {
            try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // A peer that dies with unread data in its socket resets the connection rather than closing it.
                failure = "the peer went away: " + e.getMessage();
            }
            gone = true;
            lines.add(GONE);
        });
    }

    void send(String line) {
        try {
            out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("perf control channel to " + socket.getRemoteSocketAddress() + " failed", e);
        }
    }

    /** The next line's words, waiting at most {@code timeoutMs}; its first word must be {@code keyword}. */
    String[] expect(String keyword, long timeoutMs) {
        String[] words = words(next(timeoutMs));
        if (!words[0].equals(keyword)) {
            throw new IllegalStateException("perf peer sent '" + String.join(" ", words) + "', expected " + keyword);
        }
        return words;
    }

    /** The next line's words, waiting as long as it takes (or the peer goes away). */
    String[] receive() {
        return words(next(Long.MAX_VALUE));
    }

    /** The next line's words if one has come, else null; never blocks. */
    String[] poll() {
        String line = lines.poll();
        return line == null ? null : words(line);
    }

    private String next(long timeoutMs) {
        try {
            String line = lines.poll(timeoutMs, TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new IllegalStateException("perf peer sent nothing for " + timeoutMs + " ms");
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the perf peer", e);
        }
    }

    private String[] words(String line) {
        if (line.equals(GONE)) {
            lines.add(GONE);
            throw new IllegalStateException("perf peer " + socket.getRemoteSocketAddress() + ": " + failure);
        }
        return line.trim().split(" +");
    }

    /**
     * Sends an {@code EP} line for each queue pair, reads the peer's as many, and brings
     * each pair up towards its peer's; returns the peer's first endpoint, which names its
     * region.
     */
    QpEndpoint exchangeEndpoints(QueuePair[] pairs, RcOptions options, long timeoutMs) {
        QpEndpoint[] local = new QpEndpoint[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            local[i] = RcConnector.localEndpoint(pairs[i], options);
            send("EP " + local[i].encode());
        }
        QpEndpoint first = null;
        for (int i = 0; i < pairs.length; i++) {
            String[] words = expect("EP", timeoutMs);
            QpEndpoint remote = QpEndpoint.decode(String.join(" ", java.util.Arrays.copyOfRange(words, 1, words.length)));
            RcConnector.bringUp(pairs[i], local[i], remote, options);
            first = first == null ? remote : first;
        }
        return first;
    }

    /** Whether the peer has gone away (its channel closed or failed). */
    boolean peerGone() {
        return gone;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing: nothing more to tell the peer.
        }
    }
}
