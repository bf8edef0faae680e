package dev.verbs4j.softroce.transport;

import static dev.verbs4j.softroce.transport.NativeLinkTesting.address;
import static dev.verbs4j.softroce.transport.NativeLinkTesting.datagram;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The native link keeping what is sent between {@code holdSends} and {@code flushSends}:
 * nothing of it leaves before the flush, then all of it, in the order it was sent, each
 * datagram from the socket of its source port, as {@code sendto} would have sent it.
 * Datagrams sent on loopback are queued at the receiver before the system call returns, so
 * what has left is known.
 */
class NativeUdpLinkHoldTest {
    private static final InetSocketAddress A = address("127.0.0.1", 27987);
    private static final InetSocketAddress B = address("127.0.0.2", 27987);

    @BeforeAll
    static void onLinux() {
        NativeLinkTesting.assumeNativeLink();
    }

    @Test
    void heldDatagramsLeaveAtTheFlushInOrder() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 1)) {
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            a.holdSends();
            for (int i = 0; i < 5; i++) {
                assertTrue(a.send(datagram(60 + i, i), 60 + i, B));
            }
            assertEquals(-1, b.receive(in), "nothing left before the flush");
            assertEquals(0, a.flushSends(), "none refused");
            for (int i = 0; i < 5; i++) {
                expect(b, in, 60 + i, i, A);
            }
            assertEquals(-1, b.receive(in));
            assertTrue(a.send(datagram(70, 9), 70, B));
            expect(b, in, 70, 9, A);
        }
    }

    /**
     * A hold whose datagrams leave from two sockets, overflow one batch, and include one too
     * large to keep: each goes as soon as what was kept before it has gone, so the order holds.
     */
    @Test
    void aHoldAcrossSocketsAndSizesKeepsTheOrder() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 1)) {
            int port = a.sourcePort(0xC411);
            assertEquals(0xC411, port);
            // From the device's port: datagrams 3 to n - 2, one batch and more after the large one.
            int n = SendBatch.CAPACITY + 8;
            int[] lengths = new int[n];
            int[] from = new int[n];
            for (int i = 0; i < lengths.length; i++) {
                lengths[i] = i == 5 ? 6000 : 40 + i;
                from[i] = i < 3 || i >= n - 1 ? port : A.getPort();
            }
            a.holdSends();
            for (int i = 0; i < lengths.length; i++) {
                assertTrue(a.send(datagram(lengths[i], i), lengths[i], B, from[i]));
            }
            assertEquals(0, a.flushSends());
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            for (int i = 0; i < lengths.length; i++) {
                expect(b, in, lengths[i], i, new InetSocketAddress(A.getAddress(), from[i]));
            }
            assertEquals(-1, b.receive(in));
        }
    }

    /**
     * Datagrams built in the link's slot leave as if sent from a buffer: past a full batch
     * (the slot is then the room beyond it), from a second socket (the batch leaves first and
     * the datagram is moved to its first room), and mixed with ones sent from a buffer. Out
     * of a hold there is no slot.
     */
    @Test
    void datagramsBuiltInTheSlotLeaveInOrder() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 1)) {
            int port = a.sourcePort(0xC412);
            assertEquals(0xC412, port);
            assertNull(a.sendSlot(), "no slot while sends go at once");
            int n = SendBatch.CAPACITY + 6;
            int[] from = new int[n];
            a.holdSends();
            for (int i = 0; i < n; i++) {
                from[i] = i == SendBatch.CAPACITY + 2 ? port : A.getPort();
                int length = 50 + i;
                if (i % 5 == 4) {
                    assertTrue(a.send(datagram(length, i), length, B, from[i]));
                    continue;
                }
                MemorySegment slot = a.sendSlot();
                assertNotNull(slot, "datagram " + i);
                MemorySegment.copy(MemorySegment.ofBuffer(datagram(length, i)), 0, slot, 0, length);
                assertTrue(a.sendFromSlot(length, B, from[i]));
            }
            assertEquals(0, a.flushSends());
            assertNull(a.sendSlot(), "none after the flush");
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            for (int i = 0; i < n; i++) {
                expect(b, in, 50 + i, i, new InetSocketAddress(A.getAddress(), from[i]));
            }
            assertEquals(-1, b.receive(in));
        }
    }

    /** A datagram the kernel refuses (to port 0) is dropped and counted; the ones around it leave. */
    @Test
    void aRefusedDatagramIsCountedAndTheRestLeave() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 1)) {
            a.holdSends();
            assertTrue(a.send(datagram(50, 1), 50, B));
            assertTrue(a.send(datagram(51, 2), 51, new InetSocketAddress(B.getAddress(), 0)));
            assertTrue(a.send(datagram(52, 3), 52, B));
            assertEquals(1, a.flushSends(), "one refused");
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            expect(b, in, 50, 1, A);
            expect(b, in, 52, 3, A);
            assertEquals(-1, b.receive(in));
        }
    }

    /** The next datagram {@code b} receives is {@code datagram(length, seed)} from {@code sender}. */
    private static void expect(NativeUdpLink b, ByteBuffer in, int length, int seed, InetSocketAddress sender) {
        assertEquals(length, b.receive(in), "datagram " + seed);
        assertEquals(datagram(length, seed).slice(0, length), in.flip(), "datagram " + seed + "'s bytes");
        assertEquals(sender, b.source(), "datagram " + seed + "'s sender");
    }
}
