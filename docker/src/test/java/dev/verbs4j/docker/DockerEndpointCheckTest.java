package dev.verbs4j.docker;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DockerEndpointCheckTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String PING_ANSWER = "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Length: 2\r\n\r\nOK";

    @TempDir
    Path dir;

    private final List<ServerSocketChannel> servers = new ArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeServers() throws IOException {
        for (ServerSocketChannel server : servers) {
            server.close();
        }
    }

    @Test
    void notReadyWhenNoSocketExists() {
        URI missing = unix(dir.resolve("docker.sock"));

        HostCheck check = DockerEndpointCheck.check(List.of(missing), TIMEOUT);

        assertFalse(check.ready());
        assertTrue(check.detail().contains(missing + " (no such socket)"), check.detail());
    }

    @Test
    void notReadyWhenTheSocketFileHasNoListener() throws IOException {
        Path socket = dir.resolve("stale.sock");
        ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(socket)).close();

        HostCheck check = DockerEndpointCheck.check(List.of(unix(socket)), TIMEOUT);

        assertFalse(check.ready());
        assertTrue(check.detail().contains("connection refused"), check.detail());
    }

    @Test
    void readyWhenTheDaemonAnswersPing() throws IOException {
        Path socket = dir.resolve("docker.sock");
        serve(unixServer(socket), PING_ANSWER);

        HostCheck check = DockerEndpointCheck.check(List.of(unix(socket)), TIMEOUT);

        assertTrue(check.ready(), check.detail());
        assertEquals("Docker answers at " + unix(socket), check.detail());
        assertTrue(requests.getFirst().startsWith("GET /_ping HTTP/1.0\r\n"), requests.getFirst());
    }

    @Test
    void notReadyWhenTheDaemonAnswersPingWithAnError() throws IOException {
        Path socket = dir.resolve("docker.sock");
        serve(unixServer(socket), "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n");

        HostCheck check = DockerEndpointCheck.check(List.of(unix(socket)), TIMEOUT);

        assertFalse(check.ready());
        assertTrue(check.detail().contains("answered 'HTTP/1.1 500 Internal Server Error'"), check.detail());
    }

    @Test
    void notReadyWithinTheTimeoutWhenTheDaemonNeverAnswers() throws IOException {
        Path socket = dir.resolve("docker.sock");
        ServerSocketChannel server = unixServer(socket);
        List<SocketChannel> accepted = new CopyOnWriteArrayList<>();
        Thread.ofVirtual().start(() -> {
            try {
                accepted.add(server.accept()); // and never answer
            } catch (IOException e) {
                // The test closed the server first; the check's result tells what happened.
            }
        });
        Duration timeout = Duration.ofMillis(300);

        long startNs = System.nanoTime();
        HostCheck check = DockerEndpointCheck.check(List.of(unix(socket)), timeout);
        Duration took = Duration.ofNanos(System.nanoTime() - startNs);

        assertFalse(check.ready());
        assertTrue(check.detail().contains("no answer within 300 ms"), check.detail());
        assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "took " + took);
        for (SocketChannel channel : accepted) {
            channel.close();
        }
    }

    @Test
    void theFirstAnsweringEndpointWins() throws IOException {
        Path good = dir.resolve("good.sock");
        serve(unixServer(good), PING_ANSWER);

        HostCheck check = DockerEndpointCheck.check(List.of(unix(dir.resolve("missing.sock")), unix(good)), TIMEOUT);

        assertTrue(check.ready(), check.detail());
        assertTrue(check.detail().endsWith(unix(good).toString()), check.detail());
    }

    @Test
    void readyWhenATcpDaemonAnswersPing() throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        servers.add(server);
        serve(server, PING_ANSWER);
        int port = ((InetSocketAddress) server.getLocalAddress()).getPort();

        HostCheck check = DockerEndpointCheck.check(List.of(URI.create("tcp://127.0.0.1:" + port)), TIMEOUT);

        assertTrue(check.ready(), check.detail());
    }

    @Test
    void dockerHostIsTheOnlyCandidateWhenSet() {
        List<URI> candidates = DockerEndpointCheck.candidates(Map.of("DOCKER_HOST", "unix:///srv/docker.sock"), dir);

        assertEquals(List.of(URI.create("unix:///srv/docker.sock")), candidates);
    }

    @Test
    void withoutDockerHostTheSystemRootlessAndDesktopSocketsAreTried() {
        Path home = Path.of("/home/dev");

        List<URI> candidates = DockerEndpointCheck.candidates(Map.of("XDG_RUNTIME_DIR", "/run/user/1000"), home);

        assertEquals(List.of(URI.create("unix:///var/run/docker.sock"), URI.create("unix:///run/user/1000/docker.sock"),
                URI.create("unix:///home/dev/.docker/run/docker.sock"),
                URI.create("unix:///home/dev/.docker/desktop/docker.sock")), candidates);
    }

    private ServerSocketChannel unixServer(Path socket) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(socket));
        servers.add(server);
        return server;
    }

    /** Answers one request with {@code answer}, recording what was asked. */
    private void serve(ServerSocketChannel server, String answer) {
        Thread.ofVirtual().start(() -> {
            try (SocketChannel client = server.accept()) {
                ByteBuffer request = ByteBuffer.allocate(1024);
                String text = "";
                while (!text.contains("\r\n\r\n") && client.read(request) >= 0) {
                    text = new String(request.array(), 0, request.position(), StandardCharsets.US_ASCII);
                }
                requests.add(text);
                client.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)));
            } catch (IOException e) {
                // The check under test went away; its result tells what happened.
            }
        });
    }

    private static URI unix(Path socket) {
        return URI.create("unix://" + socket.toAbsolutePath());
    }
}
