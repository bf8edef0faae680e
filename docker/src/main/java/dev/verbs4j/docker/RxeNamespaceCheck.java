package dev.verbs4j.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Whether the kernel's {@code rdma_rxe} keeps one UDP socket per network namespace, so that a
 * container with a network of its own can create an rxe device on its own interface and use it.
 * <p>
 * Older drivers open the RoCEv2 port 4791 and look up routes in the initial namespace only: a
 * device made on a container's {@code eth0} then comes up ACTIVE with the container's address
 * as its GID, but nothing listens on 4791 in the container's namespace and its packets are
 * routed as if sent from the host, so no connection ever completes. There a container must use
 * the host network ({@code --network host}). Drivers with the per-namespace sockets have the
 * functions that look them up ({@value #SYMBOL} and its IPv6 twin), which the kernel lists in
 * {@code /proc/kallsyms} once the module is loaded.
 */
public final class RxeNamespaceCheck {
    static final String SYMBOL = "rxe_ns_pernet_sk4";

    private RxeNamespaceCheck() {
    }

    /** Checks the kernel this JVM runs on ({@code /proc/kallsyms}). */
    public static HostCheck onThisHost() {
        return check(Path.of("/proc/kallsyms"), System.getProperty("os.version"));
    }

    /**
     * Checks a kernel by its symbol list.
     *
     * @param kallsyms the kernel's symbol list ({@code /proc/kallsyms}: address, type, name, [module])
     * @param release  the kernel release, for the message
     */
    public static HostCheck check(Path kallsyms, String release) {
        if (!Files.isReadable(kallsyms)) {
            return HostCheck.notReady("cannot read " + kallsyms + " to tell whether kernel " + release
                    + "'s rdma_rxe has per-network-namespace sockets");
        }
        boolean found;
        try (Stream<String> lines = Files.lines(kallsyms)) {
            found = lines.anyMatch(RxeNamespaceCheck::namesSymbol);
        } catch (IOException | UncheckedIOException e) {
            return HostCheck.notReady("cannot read " + kallsyms + ": " + e.getMessage());
        }
        if (found) {
            return HostCheck.ready("kernel " + release + "'s rdma_rxe has per-network-namespace sockets (" + SYMBOL + ")");
        }
        return HostCheck.notReady("kernel " + release + "'s rdma_rxe has no per-network-namespace sockets (no " + SYMBOL
                + " in " + kallsyms + "): it listens on UDP 4791 and routes in the initial namespace only, so an rxe"
                + " device works only in a container on the host network, not on a Docker network of its own");
    }

    private static boolean namesSymbol(String line) {
        String[] fields = line.split("\\s+");
        return fields.length >= 3 && fields[2].equals(SYMBOL);
    }
}
