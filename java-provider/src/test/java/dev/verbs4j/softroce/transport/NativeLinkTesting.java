package dev.verbs4j.softroce.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What the native UDP link's tests share: addresses, datagrams with a pattern, the platform check. */
final class NativeLinkTesting {
    private NativeLinkTesting() {
    }

    static void assumeNativeLink() {
        assumeTrue(NativeUdpLink.available(), "the native UDP link needs Linux on x86-64 or AArch64");
    }

    static InetSocketAddress address(String ip, int port) {
        return new InetSocketAddress(InetAddress.ofLiteral(ip), port);
    }

    /** A direct buffer whose first {@code length} bytes follow a pattern set by {@code seed}. */
    static ByteBuffer datagram(int length, int seed) {
        ByteBuffer b = ByteBuffer.allocateDirect(9000);
        for (int i = 0; i < length; i++) {
            b.put(i, (byte) (seed + i * 7));
        }
        return b;
    }
}
