package dev.verbs4j.docker;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a Docker daemon answers, found the way the Docker CLI and Testcontainers look
 * for one, and asked with a deadline.
 * <p>
 * Testcontainers' own discovery tries several strategies and, on some failures, retries
 * for minutes; this check runs first so that a host without Docker is told so in
 * milliseconds. Each candidate endpoint gets one {@code GET /_ping} (the daemon answers
 * {@code 200 OK}); a TLS endpoint ({@code DOCKER_TLS_VERIFY} set) is only connected to.
 * A {@code DOCKER_HOST} other than {@code unix://} or {@code tcp://} is not probed here
 * and is reported as ready, leaving the verdict to Testcontainers.
 */
public final class DockerEndpointCheck {
    private static final String PING = "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n";
    private static final int MAX_STATUS_LINE_BYTES = 256;
    /** The daemon's registered ports, which the Docker CLI assumes when {@code DOCKER_HOST} names none. */
    private static final int PLAIN_PORT = 2375;
    private static final int TLS_PORT = 2376;

    private DockerEndpointCheck() {
    }

    /** Checks the endpoints this process's environment points at. */
    public static HostCheck onThisHost(Duration timeout) {
        Map<String, String> env = System.getenv();
        String tlsVerify = env.getOrDefault("DOCKER_TLS_VERIFY", "");
        return check(candidates(env, Path.of(System.getProperty("user.home"))), timeout,
                !tlsVerify.isEmpty() && !tlsVerify.equals("0"));
    }

    /**
     * Where a daemon may listen: {@code DOCKER_HOST} alone when set, else the system socket,
     * the rootless daemon's socket under {@code XDG_RUNTIME_DIR} and Docker Desktop's
     * sockets under the home folder.
     */
    public static List<URI> candidates(Map<String, String> env, Path home) {
        String dockerHost = env.get("DOCKER_HOST");
        if (dockerHost != null && !dockerHost.isBlank()) {
            return List.of(URI.create(dockerHost.strip()));
        }
        List<URI> sockets = new ArrayList<>();
        sockets.add(unixUri(Path.of("/var/run/docker.sock")));
        String runtimeDir = env.get("XDG_RUNTIME_DIR");
        if (runtimeDir != null && !runtimeDir.isBlank()) {
            sockets.add(unixUri(Path.of(runtimeDir, "docker.sock")));
        }
        sockets.add(unixUri(home.resolve(".docker/run/docker.sock")));
        sockets.add(unixUri(home.resolve(".docker/desktop/docker.sock")));
        return List.copyOf(sockets);
    }

    /** Ready at the first endpoint that answers; otherwise not ready, saying what each one did. */
    public static HostCheck check(List<URI> endpoints, Duration timeout) {
        return check(endpoints, timeout, false);
    }

    /** As {@link #check(List, Duration)}; {@code tls} makes TCP endpoints a connect-only check. */
    public static HostCheck check(List<URI> endpoints, Duration timeout, boolean tls) {
        List<String> failures = new ArrayList<>();
        for (URI endpoint : endpoints) {
            String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme();
            try {
                switch (scheme) {
                    case "unix" -> {
                        Path socket = Path.of(endpoint.getPath());
                        if (!Files.exists(socket)) {
                            failures.add(endpoint + " (no such socket)");
                            continue;
                        }
                        ping(UnixDomainSocketAddress.of(socket), StandardProtocolFamily.UNIX, timeout, true);
                        return HostCheck.ready("Docker answers at " + endpoint);
                    }
                    case "tcp" -> {
                        int port = endpoint.getPort() >= 0 ? endpoint.getPort() : tls ? TLS_PORT : PLAIN_PORT;
                        InetSocketAddress address = new InetSocketAddress(endpoint.getHost(), port);
                        ping(address, StandardProtocolFamily.INET, timeout, !tls);
                        return HostCheck.ready(tls ? "Docker accepts TLS connections at " + endpoint
                                : "Docker answers at " + endpoint);
                    }
                    default -> {
                        return HostCheck.ready("DOCKER_HOST " + endpoint + " is not probed here; Testcontainers decides");
                    }
                }
            } catch (ConnectException e) {
                failures.add(endpoint + " (connection refused)");
            } catch (IOException e) {
                failures.add(endpoint + " (" + e.getMessage() + ")");
            }
        }
        return HostCheck.notReady("no Docker daemon answers: " + String.join(", ", failures)
                + "; start one, or point DOCKER_HOST at it");
    }

    /**
     * Connects and, when {@code askPing}, sends {@code GET /_ping} and reads the status
     * line, all before the deadline.
     *
     * @throws IOException when the connection fails, the deadline passes or the answer is not {@code 200}
     */
    private static void ping(SocketAddress address, StandardProtocolFamily family, Duration timeout, boolean askPing)
            throws IOException {
        Deadline deadline = new Deadline(System.nanoTime() + timeout.toNanos(), timeout);
        try (SocketChannel channel = SocketChannel.open(family); Selector selector = Selector.open()) {
            channel.configureBlocking(false);
            if (!channel.connect(address)) {
                channel.register(selector, SelectionKey.OP_CONNECT);
                await(selector, deadline, "no connection");
                channel.finishConnect();
            }
            if (!askPing) {
                return;
            }
            ByteBuffer request = ByteBuffer.wrap(PING.getBytes(StandardCharsets.US_ASCII));
            channel.register(selector, SelectionKey.OP_WRITE);
            while (request.hasRemaining()) {
                await(selector, deadline, "no answer");
                channel.write(request);
            }
            channel.register(selector, SelectionKey.OP_READ);
            String status = readStatusLine(channel, selector, deadline);
            if (!status.matches("HTTP/1\\.[01] 200( .*)?")) {
                throw new IOException("answered '" + status + "' to GET /_ping");
            }
        }
    }

    private static String readStatusLine(SocketChannel channel, Selector selector, Deadline deadline) throws IOException {
        ByteBuffer answer = ByteBuffer.allocate(MAX_STATUS_LINE_BYTES);
        while (answer.hasRemaining()) {
            await(selector, deadline, "no answer");
            if (channel.read(answer) < 0) {
                break;
            }
            String text = new String(answer.array(), 0, answer.position(), StandardCharsets.US_ASCII);
            int end = text.indexOf("\r\n");
            if (end >= 0) {
                return text.substring(0, end);
            }
        }
        String text = new String(answer.array(), 0, answer.position(), StandardCharsets.US_ASCII).strip();
        throw new IOException(text.isEmpty() ? "closed the connection without answering" : "answered '" + text + "'");
    }

    /** Waits for the registered operation; a wake-up with nothing ready counts as the deadline passing. */
    private static void await(Selector selector, Deadline deadline, String what) throws IOException {
        selector.selectedKeys().clear();
        long remainingMs = (deadline.atNs() - System.nanoTime()) / 1_000_000;
        if (remainingMs <= 0 || selector.select(remainingMs) == 0) {
            throw new IOException(what + " within " + deadline.timeout().toMillis() + " ms");
        }
    }

    private record Deadline(long atNs, Duration timeout) {
    }

    private static URI unixUri(Path socket) {
        return URI.create("unix://" + socket.toAbsolutePath());
    }
}
