package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.Mtu;
import dev.verbs4j.RcOptions;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.Counters;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.UdpFlow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * RDMA WRITEs over real UDP sockets, on either socket implementation: several queue pairs
 * between the same two devices, their packets interleaved (each pair sends from its own
 * UDP source port), every byte checked; no packet dropped. The sockets set Don't Fragment,
 * so the kernel sends a datagram alone with IPv4 Identification 0, as the ICRC assumes; the
 * native link sends a WRITE's three packets as one segmented run, whose second and third the
 * kernel numbers 1 and 2, and whose ICRCs were built for those: the receiver recovers at most
 * those two IDs per WRITE, and none from the JDK's sockets.
 */
class SocketLinkTrafficTest {
    private static final int PAIRS = 4;
    private static final int SIZE = 10_000;

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "native"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void interleavedQueuePairsDeliverEveryByte(String implementation) {
        SocketLinks.assumeAvailable(implementation);
        deliverEveryByte(implementation, implementation.equals("jdk") ? 27991 : 27992);
    }

    /**
     * What a kernel peer checks and a soft receiver cannot: the ICRC over the IP and UDP
     * headers the kernel put on each datagram. A soft receiver sees the UDP payload only and
     * takes the IPv4 Identification the sender built the ICRC for; a kernel rxe reads the one
     * the kernel sent (a connected socket, for one, numbers its datagrams from a random start,
     * and every ICRC built for 0 is then wrong). Every datagram of the native link's traffic,
     * requests alone and in segmented runs and acknowledgements, captured on loopback with runs
     * cut as a segmenting kernel cuts them, carries an ICRC that matches its real headers.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyIcrcMatchesTheHeadersTheKernelSent() {
        SocketLinks.assumeAvailable("native");
        assumeTrue(LoopbackCapture.describesSegmentedRuns(),
                "Linux before 6.2 cannot describe a segmented run to a packet socket, and the capture would miss them");
        int port = 27993;
        try (LoopbackCapture capture = LoopbackCapture.open(port)) {
            assumeTrue(capture != null, "capturing on lo takes a packet socket, which needs CAP_NET_RAW");
            long received = deliverEveryByte("native", port);
            List<LoopbackCapture.Datagram> seen = capture.drain();
            assertEquals(received, seen.size(), "every datagram the devices received was captured");
            Icrc icrc = new Icrc();
            UdpFlow flow = new UdpFlow();
            int laterInRuns = 0;
            for (int i = 0; i < seen.size(); i++) {
                LoopbackCapture.Datagram d = seen.get(i);
                flow.set(d.source(), d.sourcePort(), d.destination(), d.destinationPort());
                MemorySegment payload = MemorySegment.ofArray(d.payload());
                int length = d.payload().length;
                int sent = payload.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), length - Icrc.LENGTH);
                assertEquals(icrc.compute(flow, d.ipv4Id(), payload, 0, length), sent,
                        "datagram " + i + " from port " + d.sourcePort() + ", IPv4 ID " + d.ipv4Id());
                laterInRuns += d.ipv4Id() != 0 ? 1 : 0;
            }
            assertTrue(laterInRuns > 0, "the later datagrams of a segmented run travel with IDs 1, 2, ...");
        }
    }

    /** Eight rounds of a 10,000-byte WRITE on each of the pairs, every byte checked. @return the datagrams the two devices received */
    private static long deliverEveryByte(String implementation, int port) {
        SoftDevice da = device("links-a-" + implementation, "127.0.0.1", port, implementation);
        SoftDevice db = device("links-b-" + implementation, "127.0.0.2", port, implementation);
        DeviceEngine[] engines = new DeviceEngine[2];
        Runnable pump = () -> {
            long now = System.nanoTime();
            engines[0].doWork(now);
            engines[1].doWork(now);
        };
        RcOptions options = new RcOptions().mtu(Mtu.MTU_4096)
                .access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
        List<RcPair> pairs = new ArrayList<>();
        try {
            for (int i = 0; i < PAIRS; i++) {
                pairs.add(new RcPair(da, db, 4 * SIZE, 16, options, pump));
                engines[0] = da.engine();
                engines[1] = db.engine();
            }
            SendWorkRequest wr = new SendWorkRequest();
            for (int round = 0; round < 8; round++) {
                for (int p = 0; p < PAIRS; p++) {
                    RcPair pair = pairs.get(p);
                    for (int i = 0; i < SIZE; i++) {
                        pair.a.buf.set(ValueLayout.JAVA_BYTE, i, (byte) (round * 31 + p * 7 + i));
                    }
                    pair.a.qp.postSend(wr.wrId(round).signaled(true).buffer(pair.a.mr, 0, SIZE)
                            .rdmaWrite(pair.b.mr.address() + SIZE, pair.b.mr.rkey()));
                }
                for (int p = 0; p < PAIRS; p++) {
                    RcPair pair = pairs.get(p);
                    WorkCompletion wc = pair.await(pair.a.cq, 10_000);
                    assertTrue(wc.isSuccess(), wc.toString());
                    assertEquals(-1, pair.a.buf.asSlice(0, SIZE).mismatch(pair.b.buf.asSlice(SIZE, SIZE)),
                            "pair " + p + " round " + round);
                }
            }
            for (DeviceEngine e : engines) {
                assertEquals(0, e.counters().drops(), "drops");
                long recovered = e.counters().get(Counters.ICRC_IPV4_ID_RECOVERED);
                assertTrue(implementation.equals("jdk") ? recovered == 0 : recovered <= 8 * PAIRS * 2,
                        "IPv4 IDs recovered: " + recovered);
                assertEquals(0, e.counters().get(Counters.RETRANSMITS), "retransmits");
            }
            // 8 rounds x 4 pairs x 3 packets (MTU 4096), every one received.
            assertEquals(8 * PAIRS * 3, engines[1].counters().get(Counters.PACKETS_IN));
            return engines[0].counters().get(Counters.PACKETS_IN) + engines[1].counters().get(Counters.PACKETS_IN);
        } finally {
            pairs.forEach(RcPair::close);
        }
    }

    private static SoftDevice device(String name, String ip, int port, String implementation) {
        SoftDeviceConfig config = SoftDeviceConfig.of(name, InetAddress.ofLiteral(ip)).withPorts(port, port);
        return SoftDevice.manual(config, SocketLinks.open(implementation, new InetSocketAddress(config.address(), port)));
    }
}
