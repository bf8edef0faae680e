package dev.verbs4j.conformance.agent;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * The conformance suite's peer agent: holds the remote side of a run whose two sides are
 * in different processes, namespaces or hosts, and runs there every call the test process
 * makes on it. It serves one session (or {@code --sessions N}, one after another), then exits.
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... dev.verbs4j.conformance.agent.AgentMain --listen 10.9.0.2:18600
 * </pre>
 * The test process then runs {@code ConformanceMain ... --peer-provider soft --peer-device soft0
 * --peer-agent 10.9.0.2:18600}. Both must see the same tmpfs folder for the shared memory
 * (the same machine or virtual machine; see {@link SharedMemory}).
 * It has no libibverbs counterpart: it is the remote half of a run, as the server side of {@code ibv_rc_pingpong} is of that program.
 */
public final class AgentMain {
    /** The agent ends when the process that started it ends. */
    static final String EXIT_WITH_PARENT = "--exit-with-parent";

    private AgentMain() {
    }

    /**
     * Runs an agent: {@code --listen ADDRESS:PORT [--sessions N] [--exit-with-parent]}; exits 2 for a usage error.
     *
     * @param args the options
     * @throws IOException when the address cannot be bound
     * @throws InterruptedException when the serving thread is interrupted
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        InetSocketAddress address = null;
        int sessions = 1;
        boolean withParent = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--listen" -> address = parseAddress(args[++i]);
                    case "--sessions" -> sessions = Integer.parseInt(args[++i]);
                    case EXIT_WITH_PARENT -> withParent = true;
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            address = null;
        }
        if (address == null || sessions < 1) {
            System.err.println("usage: AgentMain --listen ADDRESS:PORT [--sessions N] [" + EXIT_WITH_PARENT + "]"
                    + "   (port 0 picks a free one; N sessions one after another, default 1)");
            System.exit(2);
        }
        if (withParent) {
            // Started by a test process: it goes, the agent goes, even if it never connected.
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(3)));
        }
        System.exit(run(address, sessions));
    }

    /**
     * Listens on {@code address}, says where on standard output, and serves {@code sessions}
     * sessions one after another (a test process's run each, such as the columns of one
     * {@code ConformanceMain ... --next ...}); returns the exit status.
     *
     * @param address where to listen; port 0 picks a free one
     * @param sessions how many sessions to serve
     * @return 0 once the last session ended
     * @throws IOException when the address cannot be bound
     * @throws InterruptedException when the serving thread is interrupted
     */
    public static int run(InetSocketAddress address, int sessions) throws IOException, InterruptedException {
        InetSocketAddress bound = address;
        for (int i = 0; i < sessions; i++) {
            // A listener a session: closing it ends that session's accepting, so the next
            // session's connections all reach the next server.
            try (ServerSocket listener = new ServerSocket()) {
                listener.setReuseAddress(true);
                bindAgain(listener, bound);
                bound = (InetSocketAddress) listener.getLocalSocketAddress();
                if (i == 0) {
                    System.out.println(Protocol.LISTENING + listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort());
                    System.out.flush();
                }
                new AgentServer(listener).serve();
            }
        }
        return 0;
    }

    /**
     * Binds {@code listener} to {@code address}, trying again for a few seconds while the
     * previous session's listener there is still closing (its accepting thread lets the socket
     * go only once it wakes).
     */
    private static void bindAgain(ServerSocket listener, InetSocketAddress address) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                listener.bind(address);
                return;
            } catch (BindException e) {
                if (attempt == 100) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * {@code host:port} (an IPv6 host in brackets).
     *
     * @param text e.g. {@code 10.9.0.2:18600} or {@code [fe80::1]:18600}
     * @return the address, its host resolved
     * @throws IllegalArgumentException when the text has no port or the host cannot be resolved
     */
    public static InetSocketAddress parseAddress(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), Integer.parseInt(text.substring(colon + 1)));
        } catch (IOException | NumberFormatException e) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'", e);
        }
    }
}
