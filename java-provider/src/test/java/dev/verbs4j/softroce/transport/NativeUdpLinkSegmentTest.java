package dev.verbs4j.softroce.transport;

import static dev.verbs4j.softroce.transport.NativeLinkTesting.address;
import static dev.verbs4j.softroce.transport.NativeLinkTesting.datagram;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Runs of held datagrams of one size to one destination leave as one segmented send
 * ({@code UDP_SEGMENT}), each after a run's first changed for the IPv4 ID the kernel gives
 * it, and come back apart: from a message the kernel joined ({@code UDP_GRO}) or one by one.
 */
class NativeUdpLinkSegmentTest {
    private static final InetSocketAddress A = address("127.0.0.1", 27991);
    private static final InetSocketAddress B = address("127.0.0.2", 27991);

    /** Marks a datagram's last byte with the ID change: what arrives shows which ID each was changed for. */
    private static final Ipv4IdStamp LAST_BYTE = new Ipv4IdStamp() {
        @Override
        public boolean changeable(MemorySegment datagram, int length) {
            return true;
        }

        @Override
        public void change(MemorySegment datagram, int length, int idChange) {
            datagram.set(ValueLayout.JAVA_BYTE, length - 1, (byte) (datagram.get(ValueLayout.JAVA_BYTE, length - 1) ^ idChange));
        }
    };

    @BeforeAll
    static void onLinux() {
        NativeLinkTesting.assumeNativeLink();
    }

    @Test
    void aRunLeavesAsOneSendAndAJoiningReceiverHandsItOutApart() {
        try (NativeUdpLink a = new NativeUdpLink(A); NativeUdpLink b = new NativeUdpLink(B)) {
            assumeTrue(b.joinsReceives(), "the kernel joins received datagrams (UDP_GRO, Linux 5.0 on)");
            a.segmentSends(LAST_BYTE);
            sendRunAndExpectItApart(a, b);
            assertEquals(1, b.joinedMessagesReceived(), "the run came in one message");
            assertEquals(1, b.batchesFetched(), "a joined run is a burst: the receive after it asked for a batch");
        }
    }

    @Test
    void aReceiverThatDoesNotJoinGetsTheRunCutByTheKernel() {
        try (NativeUdpLink a = new NativeUdpLink(A); NativeUdpLink b = new NativeUdpLink(B, 1)) {
            assertFalse(b.joinsReceives(), "a link that receives one datagram per call does not join");
            a.segmentSends(LAST_BYTE);
            sendRunAndExpectItApart(a, b);
        }
    }

    /** Ten datagrams of 1,000 bytes and one of 500, held and flushed: one run, eleven datagrams in order. */
    private static void sendRunAndExpectItApart(NativeUdpLink a, NativeUdpLink b) {
        a.holdSends();
        for (int i = 0; i < 11; i++) {
            int length = i < 10 ? 1000 : 500;
            assertTrue(a.send(datagram(length, i), length, B));
        }
        assertEquals(0, a.flushSends(), "none refused");
        assertTrue(a.segmentsSends());
        assertEquals(1, a.segmentedRuns(), "the eleven went as one segmented send");
        ByteBuffer in = ByteBuffer.allocateDirect(9000);
        for (int i = 0; i < 11; i++) {
            int length = i < 10 ? 1000 : 500;
            assertEquals(length, b.receive(in), "datagram " + i);
            assertEquals(A, b.source());
            ByteBuffer expected = datagram(length, i);
            expected.put(length - 1, (byte) (expected.get(length - 1) ^ i));
            assertEquals(expected.slice(0, length), in.duplicate().flip(), "datagram " + i + ", changed for ID " + i);
        }
        assertEquals(-1, b.receive(in));
    }

    /**
     * A socket without UDP checksums ({@code SO_NO_CHECK}) cannot send a segmented run: the
     * kernel refuses it (EINVAL) and takes its datagrams one by one, as built, unchanged for
     * an ID; after three such runs the link sends each datagram alone.
     */
    @Test
    void runsTheKernelRefusesButTakesAloneGoAloneAsBuiltAndThenAlways() {
        try (NativeUdpLink a = new NativeUdpLink(A); NativeUdpLink b = new NativeUdpLink(B)) {
            assertTrue(LibC.setIntOption(a.socket(), 1, 11, 1), "SO_NO_CHECK");
            a.segmentSends(LAST_BYTE);
            ByteBuffer in = ByteBuffer.allocateDirect(9000);
            for (int round = 0; round < 4; round++) {
                assertTrue(a.segmentsSends(), "round " + round + ": still trying runs");
                a.holdSends();
                for (int i = 0; i < 5; i++) {
                    assertTrue(a.send(datagram(700, round * 10 + i), 700, B));
                }
                assertEquals(0, a.flushSends(), "round " + round + ": none refused in the end");
                for (int i = 0; i < 5; i++) {
                    assertEquals(700, b.receive(in), "round " + round + ", datagram " + i);
                    assertEquals(datagram(700, round * 10 + i).slice(0, 700), in.duplicate().flip(),
                            "round " + round + ", datagram " + i + " as built");
                }
                assertEquals(-1, b.receive(in));
                if (round == 2) {
                    assertFalse(a.segmentsSends(), "three runs refused and taken alone: each alone from now on");
                    break;
                }
            }
            assertEquals(0, a.segmentedRuns());
        }
    }

    @Test
    void withoutAStampOrWithThePropertyFalseEachDatagramLeavesAlone() {
        try (NativeUdpLink a = new NativeUdpLink(A); NativeUdpLink b = new NativeUdpLink(B)) {
            a.holdSends();
            for (int i = 0; i < 4; i++) {
                assertTrue(a.send(datagram(800, i), 800, B));
            }
            assertEquals(0, a.flushSends());
            assertFalse(a.segmentsSends());
            assertEquals(0, a.segmentedRuns());
        }
        System.setProperty(NativeUdpLink.SEGMENT_PROPERTY, "false");
        try (NativeUdpLink a = new NativeUdpLink(A); NativeUdpLink b = new NativeUdpLink(B)) {
            a.segmentSends(LAST_BYTE);
            assertFalse(a.segmentsSends());
            assertFalse(b.joinsReceives());
        } finally {
            System.clearProperty(NativeUdpLink.SEGMENT_PROPERTY);
        }
    }

    @Test
    void runsEndAtAnotherDestinationALongerDatagramAShorterOneAndOneThatKeepsItsId() {
        long d1 = 0x0100_007F_D2BB_0002L;
        long d2 = 0x0200_007F_D2BB_0002L;
        long[] destinations = {d1, d1, d1, d1, d2, d2, d1, d1, d1, d1};
        int[] lengths = {100, 100, 50, 100, 100, 100, 100, 120, 120, 120};
        MemorySegment[] data = new MemorySegment[destinations.length];
        for (int i = 0; i < data.length; i++) {
            data[i] = MemorySegment.ofArray(new byte[] {(byte) i});
        }
        // The datagram at 9 must keep the ID it was built for.
        Ipv4IdStamp allBut9 = new Ipv4IdStamp() {
            @Override
            public boolean changeable(MemorySegment datagram, int length) {
                return datagram.get(ValueLayout.JAVA_BYTE, 0) != 9;
            }

            @Override
            public void change(MemorySegment datagram, int length, int idChange) {
            }
        };
        int[] starts = new int[SendBatch.CAPACITY + 1];
        int runs = SendBatch.planRuns(destinations, lengths, destinations.length, allBut9, data, starts);
        // [0,3): 100, 100, then 50 ends it; 3 alone (d2 follows); [4,6) d2; 6 alone (120 is
        // longer); [7,9): 120, 120; 9 alone (keeps its ID).
        assertArrayEquals(new int[] {0, 3, 4, 6, 7, 9, 10}, Arrays.copyOf(starts, runs + 1));
    }

    @Test
    void aRunHoldsAtMostSixtyFourDatagramsAndOneDatagramsWorthOfBytes() {
        int n = SendBatch.CAPACITY;
        long[] destinations = new long[n];
        MemorySegment[] data = new MemorySegment[n];
        Arrays.fill(destinations, 0x0100_007F_D2BB_0002L);
        Arrays.fill(data, MemorySegment.ofArray(new byte[1]));
        int[] lengths = new int[n];
        Arrays.fill(lengths, 4136);
        int[] starts = new int[n + 1];
        // 15 datagrams of 4,136 bytes are 62,040 bytes; a 16th would pass 65,000.
        assertEquals(2, SendBatch.planRuns(destinations, lengths, n, Ipv4IdStamp.NONE, data, starts));
        assertEquals(15, starts[1]);
        Arrays.fill(lengths, 40);
        assertEquals(1, SendBatch.planRuns(destinations, lengths, n, Ipv4IdStamp.NONE, data, starts));
        assertTrue(SendBatch.CAPACITY <= SendBatch.MAX_RUN);
    }
}
