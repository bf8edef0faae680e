package dev.verbs4j.softroce.transport;

import static dev.verbs4j.softroce.transport.NativeLinkTesting.address;
import static dev.verbs4j.softroce.transport.NativeLinkTesting.datagram;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The C-library UDP link: datagrams, senders, source ports, waiting and waking, bind errors. */
class NativeUdpLinkTest {
    private static final InetSocketAddress A = address("127.0.0.1", 27981);
    private static final InetSocketAddress B = address("127.0.0.2", 27981);

    @BeforeAll
    static void onLinux() {
        NativeLinkTesting.assumeNativeLink();
    }

    /** Receives one datagram, waiting up to a second for it. */
    private static int receive(Link link, ByteBuffer into) {
        long end = System.nanoTime() + 1_000_000_000L;
        int n;
        while ((n = link.receive(into)) < 0 && System.nanoTime() < end) {
            link.await(10_000_000L);
        }
        return n;
    }

    @Test
    void datagramArrivesWhole() {
        try (Link a = new NativeUdpLink(A); Link b = new NativeUdpLink(B)) {
            assertEquals(A, a.localAddress());
            ByteBuffer out = datagram(4133, 3);
            assertTrue(a.send(out, 4133, B));
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            assertEquals(4133, receive(b, in));
            assertEquals(4133, in.position());
            assertEquals(out.slice(0, 4133), in.flip());
            assertEquals(A, b.source());
            assertEquals(-1, b.receive(in), "one datagram was sent");
        }
    }

    /**
     * The receive buffer the link reports is the kernel's, as the JDK's channel reports it: at
     * least the default one (a socket that asked for 8 MiB gets at most the system's limit,
     * doubled), and the same figure both implementations of the link see.
     */
    @Test
    void theReceiveBufferIsTheKernels() throws Exception {
        try (Link a = new NativeUdpLink(A); Link jdk = new UdpLink(B)) {
            int bytes = a.receiveBufferBytes();
            assertTrue(bytes >= 2 * 106_496, "at least the default, doubled: " + bytes);
            assertEquals(jdk.receiveBufferBytes(), bytes, "the JDK's channel asked for the same 8 MiB");
        }
    }

    @Test
    void eachSenderIsOneAddressObject() {
        try (Link a = new NativeUdpLink(A); Link b = new NativeUdpLink(B)) {
            int port1 = a.sourcePort(0xC101);
            int port2 = a.sourcePort(0xC202);
            assertEquals(0xC101, port1);
            assertEquals(0xC202, port2);
            ByteBuffer out = datagram(64, 1);
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            InetSocketAddress[] first = new InetSocketAddress[3];
            int[] ports = {port1, port2, A.getPort()};
            for (int round = 0; round < 3; round++) {
                for (int s = 0; s < 3; s++) {
                    assertTrue(a.send(out, 64, B, ports[s]));
                    assertEquals(64, receive(b, in));
                    InetSocketAddress from = b.source();
                    assertEquals(new InetSocketAddress(A.getAddress(), ports[s]), from);
                    if (round == 0) {
                        first[s] = from;
                    } else {
                        assertSame(first[s], from, "the same sender is the same object");
                    }
                }
            }
            assertNotSame(first[0], first[1]);
        }
    }

    @Test
    void aTakenSourcePortFallsBackToTheDevicePort() {
        try (Link a = new NativeUdpLink(A); Link squatter = new NativeUdpLink(address("127.0.0.1", 0xC303))) {
            assertEquals(A.getPort(), a.sourcePort(0xC303));
            assertEquals(A.getPort(), a.sourcePort(80), "outside the RoCEv2 source range");
            assertEquals(0xC303, squatter.localAddress().getPort());
        }
    }

    @Test
    void bindingATakenAddressIsABindError() {
        try (Link a = new NativeUdpLink(A)) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> new NativeUdpLink(A));
            assertInstanceOf(BindException.class, e.getCause());
            assertTrue(e.getMessage().contains("cannot bind /127.0.0.1:27981"), e.getMessage());
            assertEquals(A, a.localAddress());
        }
    }

    @Test
    void anIpv6DestinationCannotBeReachedFromAnIpv4Socket() {
        try (Link a = new NativeUdpLink(A)) {
            assertFalse(a.send(datagram(8, 0), 8, address("::1", 27981)));
        }
    }

    @Test
    void aClosedLinkTouchesNoDescriptor() {
        Link a = new NativeUdpLink(A);
        a.close();
        assertFalse(a.send(datagram(8, 0), 8, B));
        assertEquals(-1, a.receive(ByteBuffer.allocateDirect(64)));
        a.wakeup();
        a.await(1_000_000_000L);
        a.close();
        // Its address is free again.
        new NativeUdpLink(A).close();
    }

    @Test
    void ipv6SocketAddressesKeepTheirScope() throws Exception {
        byte[] linkLocal = new byte[16];
        linkLocal[0] = (byte) 0xfe;
        linkLocal[1] = (byte) 0x80;
        linkLocal[15] = 1;
        InetSocketAddress scoped = new InetSocketAddress(java.net.Inet6Address.getByAddress(null, linkLocal, 3), 4791);
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment sa = arena.allocate(LibC.SOCKADDR_SIZE, 8);
            assertEquals(28, LibC.encode(sa, true, scoped));
            InetSocketAddress back = LibC.decode(sa);
            assertEquals(scoped, back);
            assertEquals(3, ((java.net.Inet6Address) back.getAddress()).getScopeId());
            assertEquals(-1, LibC.encode(sa, false, scoped), "an IPv4 socket has no IPv6 address");
            assertEquals(16, LibC.encode(sa, false, A));
            assertEquals(A, LibC.decode(sa));
        }
    }

    @Test
    void portZeroGetsAPortFromTheKernel() {
        try (Link a = new NativeUdpLink(address("127.0.0.1", 0))) {
            assertTrue(a.localAddress().getPort() > 0);
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void wakeupEndsAWait() throws Exception {
        try (Link a = new NativeUdpLink(A)) {
            Thread waker = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                a.wakeup();
            });
            long start = System.nanoTime();
            a.await(5_000_000_000L);
            long waited = System.nanoTime() - start;
            waker.join();
            assertTrue(waited < 4_000_000_000L, "woken after " + waited / 1_000_000 + " ms, not at the 5 s timeout");
            // The wakeup was consumed: the next wait runs to its (short) timeout.
            long again = System.nanoTime();
            a.await(50_000_000L);
            assertTrue(System.nanoTime() - again >= 40_000_000L, "a spent wakeup does not end the next wait");
        }
    }

    /**
     * Skips where the machine has no IPv6 loopback address; where it has one, a link that
     * cannot bind to it fails the test.
     */
    private static void assumeIpv6Loopback() {
        boolean present;
        try {
            present = java.net.NetworkInterface.getByInetAddress(java.net.InetAddress.getByName("::1")) != null;
        } catch (java.io.IOException e) {
            present = false;
        }
        assumeTrue(present, "no IPv6 loopback address (::1) on this machine");
    }

    @Test
    void ipv6DatagramsToo() {
        assumeIpv6Loopback();
        InetSocketAddress six = address("::1", 27982);
        try (Link a = new NativeUdpLink(six); Link b = new NativeUdpLink(address("::1", 27983))) {
            assertTrue(a.send(datagram(100, 9), 100, b.localAddress()));
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            assertEquals(100, receive(b, in));
            assertEquals(six, b.source());
        }
    }

    /**
     * The kernel rxe sends RoCEv2 over IPv6 with a UDP checksum of 0, which a plain IPv6 UDP
     * socket drops (Udp6InCsumErrors); the link's socket takes it. The sender here sets
     * {@code UDP_NO_CHECK6_TX}, so the kernel puts 0 where the checksum goes.
     */
    @Test
    void ipv6DatagramsWithAZeroUdpChecksumArrive() {
        assumeIpv6Loopback();
        Link receiver = new NativeUdpLink(address("::1", 27984));
        int sender = LibC.udpSocket(true, 4096, 1 << 16);
        try (receiver; java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            assertTrue(LibC.setIntOption(sender, LibC.SOL_UDP, UDP_NO_CHECK6_TX, 1), "UDP_NO_CHECK6_TX");
            java.lang.foreign.MemorySegment to = arena.allocate(LibC.SOCKADDR_SIZE, 8);
            int toLength = LibC.encode(to, true, receiver.localAddress());
            java.lang.foreign.MemorySegment payload = arena.allocate(64);
            payload.fill((byte) 7);
            assertEquals(64, LibC.sendTo(sender, payload, 64, to, toLength));
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            assertEquals(64, receive(receiver, in), "the zero-checksum datagram was taken");
        } finally {
            LibC.close(sender);
        }
    }

    private static final int UDP_NO_CHECK6_TX = 101;
}
