package dev.verbs4j.softroce;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The raw socket the perf baseline streams with: held sends leave at the flush, in order, whole. */
class RawUdpSocketTest {
    @Test
    void heldSendsLeaveTogetherAtTheFlushInOrder() throws Exception {
        Assumptions.assumeTrue(RawUdpSocket.available(), "needs the C library and native access");
        InetSocketAddress a = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 27885);
        InetSocketAddress b = new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 27885);
        try (RawUdpSocket from = new RawUdpSocket(a); RawUdpSocket to = new RawUdpSocket(b)) {
            assertEquals(b, to.localAddress());
            ByteBuffer out = ByteBuffer.allocateDirect(5000);
            ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
            from.holdSends();
            int[] lengths = {4128, 64, 4112};
            for (int i = 0; i < lengths.length; i++) {
                out.clear();
                for (int j = 0; j < lengths[i]; j++) {
                    out.put(j, (byte) (i * 31 + j));
                }
                assertTrue(from.send(out, lengths[i], b));
            }
            assertEquals(-1, to.receive(in), "nothing leaves before the flush");
            assertEquals(0, from.flushSends());
            for (int i = 0; i < lengths.length; i++) {
                assertEquals(lengths[i], to.receive(in), "datagram " + i);
                for (int j = 0; j < lengths[i]; j += 97) {
                    assertEquals((byte) (i * 31 + j), in.get(j), "datagram " + i + " byte " + j);
                }
            }
            assertEquals(-1, to.receive(in));
        }
    }

    /** Devices use these sockets wherever they are available, unless {@code verbs4j.soft.udp=jdk} asks for the JDK's. */
    @Test
    void devicesUseThemUnlessTheJdksAreAskedFor() {
        String before = System.getProperty("verbs4j.soft.udp");
        try {
            System.clearProperty("verbs4j.soft.udp");
            assertEquals(RawUdpSocket.available(), RawUdpSocket.usedByDevices());
            System.setProperty("verbs4j.soft.udp", "jdk");
            assertFalse(RawUdpSocket.usedByDevices());
        } finally {
            if (before == null) {
                System.clearProperty("verbs4j.soft.udp");
            } else {
                System.setProperty("verbs4j.soft.udp", before);
            }
        }
    }
}
