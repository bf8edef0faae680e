package dev.verbs4j.softroce;

import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.transport.NativeUdpLink;
import dev.verbs4j.softroce.transport.UdpLink;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The two UDP socket implementations, by the names {@code verbs4j.soft.udp} gives them, for tests that run on both. */
final class SocketLinks {
    private SocketLinks() {
    }

    /** Skips the test (with the reason) where {@code implementation} cannot run. */
    static void assumeAvailable(String implementation) {
        assumeTrue(implementation.equals("jdk") || NativeUdpLink.available(), "the native UDP link needs Linux");
    }

    /** A link of {@code implementation} ({@code jdk} or {@code native}) bound to {@code address}. */
    static Link open(String implementation, InetSocketAddress address) {
        return implementation.equals("jdk") ? new UdpLink(address) : new NativeUdpLink(address);
    }
}
