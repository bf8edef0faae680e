package dev.verbs4j.conformance.agent;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * The conformance suite's peer agent: holds the remote side of a run whose two sides are
 * in different processes, namespaces or hosts, and runs there every call the test process
 * makes on it. It serves one session, then exits.
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
     * Runs an agent: {@code --listen ADDRESS:PORT [--exit-with-parent]}; exits 2 for a usage error.
     *
     * @param args the options
     * @throws IOException when the address cannot be bound
     * @throws InterruptedException when the serving thread is interrupted
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        boolean withParent = args.length == 3 && args[2].equals(EXIT_WITH_PARENT);
        if ((args.length != 2 && !withParent) || !args[0].equals("--listen")) {
            System.err.println("usage: AgentMain --listen ADDRESS:PORT [" + EXIT_WITH_PARENT + "]   (port 0 picks a free one)");
            System.exit(2);
        }
        if (withParent) {
            // Started by a test process: it goes, the agent goes, even if it never connected.
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(3)));
        }
        System.exit(run(parseAddress(args[1])));
    }

    /**
     * Listens on {@code address}, says where on standard output, serves one session; returns the exit status.
     *
     * @param address where to listen; port 0 picks a free one
     * @return 0 once the session ended
     * @throws IOException when the address cannot be bound
     * @throws InterruptedException when the serving thread is interrupted
     */
    public static int run(InetSocketAddress address) throws IOException, InterruptedException {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(address);
            System.out.println(Protocol.LISTENING + listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort());
            System.out.flush();
            new AgentServer(listener).serve();
        }
        return 0;
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
