package dev.verbs4j.softroce.transport;

import static dev.verbs4j.softroce.transport.NativeLinkTesting.address;
import static dev.verbs4j.softroce.transport.NativeLinkTesting.datagram;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The native link receiving several datagrams per system call ({@code recvmmsg}) once two
 * in a row have come one per {@code recvfrom}: they come out one at a time, in order, each
 * with its sender and sender slot, exactly as one {@code recvfrom} each would give them.
 * Datagrams sent on loopback are queued at the receiver before {@code sendto} returns, so
 * the number of system calls is known.
 */
class NativeUdpLinkBatchTest {
    private static final InetSocketAddress A = address("127.0.0.1", 27984);
    private static final InetSocketAddress B = address("127.0.0.2", 27984);

    @BeforeAll
    static void onLinux() {
        NativeLinkTesting.assumeNativeLink();
    }

    @Test
    void aBatchComesOutInOrderWithItsSendersAndSlots() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 8)) {
            int[] ports = {a.sourcePort(0xC401), a.sourcePort(0xC402), A.getPort()};
            assertEquals(0xC402, ports[1]);
            for (int i = 0; i < 20; i++) {
                assertTrue(a.send(datagram(100 + i, i), 100 + i, B, ports[i % 3]));
            }
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            InetSocketAddress[] senders = new InetSocketAddress[3];
            int[] slots = new int[3];
            for (int i = 0; i < 20; i++) {
                assertEquals(100 + i, b.receive(in), "datagram " + i);
                assertEquals(100 + i, in.position());
                assertEquals(datagram(100 + i, i).slice(0, 100 + i), in.flip(), "datagram " + i + "'s bytes");
                int s = i % 3;
                assertEquals(new InetSocketAddress(A.getAddress(), ports[s]), b.source());
                if (i < 3) {
                    senders[s] = b.source();
                    slots[s] = b.sourceSlot();
                } else {
                    assertSame(senders[s], b.source(), "one address object per sender");
                    assertEquals(slots[s], b.sourceSlot(), "one slot per sender");
                }
            }
            assertNotEquals(slots[0], slots[1]);
            assertNotEquals(slots[1], slots[2]);
            assertEquals(3, b.batchesFetched(), "20 datagrams: 2 alone, then batches of 8, 8 and 2");
            assertEquals(-1, b.receive(in));
            assertEquals(4, b.batchesFetched(), "the last batch was full enough to try another, which found none");
            assertEquals(-1, b.receive(in));
            assertEquals(4, b.batchesFetched(), "an empty batch: back to one datagram per call");
        }
    }

    @Test
    void aPartialBatchThenNothing() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 16)) {
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            assertEquals(-1, b.receive(in), "nothing waiting (EAGAIN)");
            assertEquals(-1, b.receive(in));
            for (int i = 0; i < 5; i++) {
                assertTrue(a.send(datagram(10, i), 10, B));
            }
            for (int i = 0; i < 5; i++) {
                assertEquals(10, b.receive(in));
                assertEquals(datagram(10, i).slice(0, 10), in.flip());
                assertEquals(A, b.source());
            }
            assertEquals(1, b.batchesFetched(), "2 alone, then one batch of 3 of the 16 it had room for");
            assertEquals(-1, b.receive(in));
            assertEquals(2, b.batchesFetched());
        }
    }

    /**
     * The last datagram of a batch that got fewer than it had room for says that nothing
     * more was waiting ({@link Link#lastWaiting}); the others of that batch, the last of a
     * full batch and a datagram that came alone say nothing.
     */
    @Test
    void theLastOfABatchThatGotLessThanItsRoomSaysNothingMoreWasWaiting() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 8)) {
            for (int i = 0; i < 13; i++) {
                assertTrue(a.send(datagram(10, i), 10, B));
            }
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            for (int i = 0; i < 13; i++) {
                assertEquals(10, b.receive(in), "datagram " + i);
                assertEquals(i == 12, b.lastWaiting(), "2 alone, a full batch of 8, then 3 of the 8 it had room for: datagram " + i);
            }
            assertEquals(2, b.batchesFetched());
            assertTrue(a.send(datagram(10, 13), 10, B));
            assertEquals(10, b.receive(in), "one that came since is fetched all the same");
            assertTrue(b.lastWaiting(), "alone in a batch with room for 8");
            assertEquals(3, b.batchesFetched());
            assertEquals(-1, b.receive(in));
            assertTrue(!b.lastWaiting(), "nothing received");
        }
    }

    @Test
    void loneDatagramsComeOnePerCall() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 16)) {
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            for (int i = 0; i < 10; i++) {
                assertTrue(a.send(datagram(10, i), 10, B));
                assertEquals(10, b.receive(in));
                assertEquals(datagram(10, i).slice(0, 10), in.flip());
                assertEquals(-1, b.receive(in));
            }
            assertEquals(0, b.batchesFetched(), "a request and its reply never wait for a batch");
            // One that finds a single datagram sends the link back to single calls.
            for (int i = 0; i < 3; i++) {
                assertTrue(a.send(datagram(10, i), 10, B));
            }
            for (int i = 0; i < 3; i++) {
                assertEquals(10, b.receive(in));
            }
            assertEquals(1, b.batchesFetched());
            assertTrue(a.send(datagram(10, 7), 10, B));
            assertEquals(10, b.receive(in));
            assertEquals(-1, b.receive(in));
            assertEquals(1, b.batchesFetched());
        }
    }

    /** A datagram larger than the buffer given is cut to it, the rest lost, with or without batches. */
    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void aDatagramLargerThanTheBufferIsTruncated(int batch) {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, batch)) {
            // Two that come alone, then the large one and the next in a batch (when there are batches).
            assertTrue(a.send(datagram(10, 3), 10, B));
            assertTrue(a.send(datagram(10, 4), 10, B));
            assertTrue(a.send(datagram(5000, 1), 5000, B));
            assertTrue(a.send(datagram(300, 2), 300, B));
            ByteBuffer small = ByteBuffer.allocateDirect(1000);
            assertEquals(10, b.receive(small));
            assertEquals(10, b.receive(small));
            assertEquals(1000, b.receive(small));
            assertEquals(datagram(5000, 1).slice(0, 1000), small.flip());
            ByteBuffer large = ByteBuffer.allocateDirect(9000);
            assertEquals(300, b.receive(large), "the next datagram is whole");
            assertEquals(datagram(300, 2).slice(0, 300), large.flip());
            assertEquals(-1, b.receive(large));
            assertEquals(batch == 1 ? 0 : 2, b.batchesFetched());
        }
    }

    /**
     * Received in place, a datagram of a batch is read where the batch holds it, until the
     * next receive; one that came alone is in the buffer (a {@code recvfrom}) or, where the
     * kernel joins runs, in the batch too (a {@code recvmsg}).
     * Either way the bytes, the cut to the buffer's size and the sender are those of a copy.
     */
    @Test
    void aDatagramOfABatchIsReceivedInPlace() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 8)) {
            int[] lengths = {10, 20, 30, 5000, 40};
            for (int i = 0; i < lengths.length; i++) {
                assertTrue(a.send(datagram(lengths[i], i), lengths[i], B));
            }
            ByteBuffer in = ByteBuffer.allocateDirect(1000);
            for (int i = 0; i < lengths.length; i++) {
                int expected = Math.min(lengths[i], in.capacity());
                assertEquals(expected, b.receiveInPlace(in), "datagram " + i);
                assertEquals(A, b.source());
                MemorySegment held = b.heldSegment();
                ByteBuffer bytes;
                if (i >= 2) {
                    assertNotNull(held, "datagram " + i + " came in a batch and stays there");
                }
                if (held == null) {
                    assertEquals(expected, in.position());
                    bytes = in.flip();
                } else {
                    bytes = held.asSlice(b.heldOffset(), expected).asByteBuffer();
                }
                assertEquals(datagram(lengths[i], i).slice(0, expected), bytes, "datagram " + i + "'s bytes");
            }
            assertEquals(1, b.batchesFetched());
            // A copying receive after one in place leaves nothing held.
            assertTrue(a.send(datagram(10, 9), 10, B));
            assertEquals(10, b.receive(in));
            assertNull(b.heldSegment());
            assertEquals(datagram(10, 9).slice(0, 10), in.flip());
        }
    }

    @Test
    void theLargestDatagramArrivesWhole() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 4)) {
            int largest = 65507;
            ByteBuffer out = ByteBuffer.allocateDirect(1 << 16);
            for (int i = 0; i < largest; i++) {
                out.put(i, (byte) (i * 31));
            }
            ByteBuffer in = ByteBuffer.allocateDirect(1 << 16);
            for (int i = 0; i < 4; i++) {
                assertTrue(a.send(out, largest - i, B));
            }
            for (int i = 0; i < 4; i++) {
                assertEquals(largest - i, b.receive(in));
                assertEquals(out.slice(0, largest - i), in.flip());
            }
            assertEquals(1, b.batchesFetched(), "the last two in a batch");
        }
    }

    @Test
    void awaitReturnsAtOnceWhileFetchedDatagramsWait() {
        try (NativeUdpLink a = new NativeUdpLink(A, 1); NativeUdpLink b = new NativeUdpLink(B, 8)) {
            for (int i = 0; i < 4; i++) {
                assertTrue(a.send(datagram(10, i), 10, B));
            }
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            for (int i = 0; i < 3; i++) {
                assertEquals(10, b.receive(in));
            }
            assertEquals(1, b.batchesFetched());
            // The fourth datagram has left the socket: a poll on it would sleep the full minute.
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> b.await(60_000_000_000L));
            assertEquals(10, b.receive(in));
            assertEquals(datagram(10, 3).slice(0, 10), in.flip());
        }
    }

    @Test
    void aClosedLinkHandsOutNothingFetched() {
        NativeUdpLink b = new NativeUdpLink(B, 8);
        try (NativeUdpLink a = new NativeUdpLink(A, 1)) {
            for (int i = 0; i < 4; i++) {
                assertTrue(a.send(datagram(10, i), 10, B));
            }
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            for (int i = 0; i < 3; i++) {
                assertEquals(10, b.receive(in));
            }
            assertEquals(1, b.batchesFetched(), "one datagram is still in the batch");
            b.close();
            assertEquals(-1, b.receive(in));
            b.await(1_000_000L);
        }
    }

    @Test
    void theBatchProperty() {
        assertEquals(16, NativeUdpLink.batchOf(null), "unset: the burst a peer's step sends in one sendmmsg");
        assertEquals(NativeUdpLink.DEFAULT_BATCH, NativeUdpLink.batchOf(null));
        assertEquals(1, NativeUdpLink.batchOf("1"));
        assertEquals(32, NativeUdpLink.batchOf(" 32 "));
        assertEquals(NativeUdpLink.MAX_BATCH, NativeUdpLink.batchOf(Integer.toString(NativeUdpLink.MAX_BATCH)));
        for (String bad : new String[] {"0", "-3", "257", "many", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NativeUdpLink.batchOf(bad));
            assertTrue(e.getMessage().contains(NativeUdpLink.BATCH_PROPERTY), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new NativeUdpLink(A, 0));
    }
}
