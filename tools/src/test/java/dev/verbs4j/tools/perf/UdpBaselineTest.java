package dev.verbs4j.tools.perf;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The raw UDP stream runs to its end in each shape, through DatagramChannels and through the
 * soft provider's raw sockets, bare or with a CRC32 in each datagram that the receiver checks.
 */
class UdpBaselineTest {
    @ParameterizedTest(name = "a thread per side {0}, batched {1}, a CRC32 {2}")
    @CsvSource({"false, false, false", "true, false, false", "false, true, false", "true, true, false",
            "false, false, true", "true, false, true", "false, true, true", "true, true, true"})
    void theStreamMovesEveryMessage(boolean threadPerSide, boolean batched, boolean crc) throws Exception {
        Assumptions.assumeTrue(!batched || dev.verbs4j.softroce.RawUdpSocket.available(),
                "the soft provider's raw sockets need the C library and native access");
        try (UdpBaseline udp = new UdpBaseline(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 27881),
                new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 27882))) {
            Result r = udp.bandwidth(65536, 4096, 300, 0, threadPerSide, batched, crc);
            assertEquals(300, r.iterations());
            assertTrue(r.setup().startsWith(batched ? "raw sockets" : "DatagramChannel"), r.setup());
            assertEquals(crc, r.setup().contains("a CRC32 per datagram"), r.setup());
            assertTrue(r.avgGbps() > 0, r.toString());
        }
    }

    /**
     * A datagram whose last four bytes are not the CRC32 of the rest, waiting at the receiver
     * before the stream starts, fails a stream with the CRC in each shape instead of counting.
     */
    @ParameterizedTest(name = "a thread per side {0}")
    @CsvSource({"false", "true"})
    void theReceiverChecksEachDatagramsCrc32(boolean threadPerSide) throws Exception {
        InetSocketAddress receiver = new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 27884);
        try (UdpBaseline udp = new UdpBaseline(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 27883), receiver);
             DatagramChannel stranger = DatagramChannel.open()) {
            // 4,128 zero bytes: the CRC32 of the first 4,124 is not zero.
            stranger.send(ByteBuffer.allocate(4128), receiver);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> udp.bandwidth(65536, 4096, 300, 0, threadPerSide, false, true));
            assertTrue(e.getMessage().contains("wrong CRC32"), e.getMessage());
        }
    }
}
