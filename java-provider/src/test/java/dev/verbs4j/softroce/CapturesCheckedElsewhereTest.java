package dev.verbs4j.softroce;

import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.Mtu;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.softroce.transport.CaptureTools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The captures a soft device writes verify in programs that are not ours: every packet's
 * ICRC in scapy's RoCE layer, every IPv4 header checksum in tshark, in both directions. One
 * side sends as the kernel's rxe does, with IPv4 Identifications that are not 0; the other
 * side's capture must show exactly those, recovered from the ICRC.
 */
class CapturesCheckedElsewhereTest {
    private static final String KERNEL_LIKE_SIDE = "10.77.0.1";
    private static final int FIRST_ID = 0x7DCF;

    @TempDir
    Path dir;

    @Test
    void everyCapturedPacketPassesScapysIcrcAndTsharksIpChecksum() throws Exception {
        String python = CaptureTools.requireScapyPython();
        CaptureTools.requireTshark();
        List<KernelIdLink> kernelLinks = new ArrayList<>();
        SimulatedPair sim = new SimulatedPair(3, link -> {
            if (!link.localAddress().getAddress().getHostAddress().equals(KERNEL_LIKE_SIDE)) {
                return link;
            }
            KernelIdLink k = new KernelIdLink(link, FIRST_ID);
            kernelLinks.add(k);
            return k;
        });
        Path a = dir.resolve("a.pcap");
        Path b = dir.resolve("b.pcap");
        RcOptions options = new RcOptions().mtu(Mtu.MTU_1024).timeout(8).retryCount(7).rnrRetry(7).minRnrTimer(1);
        try (RcPair pair = sim.connect(1 << 16, 16, options)) {
            sim.deviceA.capture(a);
            sim.deviceB.capture(b);
            exchange(pair);
        }
        List<Integer> stamped = kernelLinks.getFirst().ids();
        assertTrue(stamped.size() > 10, "traffic went from the kernel-like side: " + stamped.size());

        List<String> scapy = CaptureTools.checkIcrc(python, 0, a, b);
        String summary = scapy.getLast();
        // Each packet is in both captures: the sender's and the receiver's.
        int packets = 2 * stamped.size() + idsFrom(scapy, a, "10.77.0.2").size() + idsFrom(scapy, b, "10.77.0.2").size();
        assertEquals("checked " + packets + " bad 0 unsupported 0", summary, String.join("\n", scapy));
        assertEquals(idsFrom(scapy, a, "10.77.0.2").size(), idsFrom(scapy, b, "10.77.0.2").size());

        // b received what a sent, with the IDs a's link stamped; a's own capture shows them as 0.
        assertEquals(stamped, idsFrom(scapy, b, KERNEL_LIKE_SIDE));
        assertTrue(idsFrom(scapy, a, KERNEL_LIKE_SIDE).stream().allMatch(id -> id == 0));
        assertTrue(idsFrom(scapy, a, "10.77.0.2").stream().allMatch(id -> id == 0));

        for (Path capture : List.of(a, b)) {
            String statuses = CaptureTools.run(List.of("tshark", "-r", capture.toString(), "-o", "ip.check_checksum:TRUE",
                    "-T", "fields", "-e", "ip.checksum.status", "-e", "infiniband.bth.opcode"), 0);
            List<String> lines = statuses.strip().lines().toList();
            assertEquals(recordsIn(scapy, capture), lines.size(), statuses);
            for (String line : lines) {
                String[] f = line.split("\t", -1);
                assertEquals("1", f[0], "IPv4 header checksum good: " + line);
                assertTrue(!f[1].isEmpty(), "decoded as RoCEv2: " + line);
            }
        }
    }

    @Test
    void aCorruptedRecordIsCaughtByTheIndependentCheck() throws Exception {
        String python = CaptureTools.requireScapyPython();
        SimulatedPair sim = new SimulatedPair(4);
        Path a = dir.resolve("a.pcap");
        try (RcPair pair = sim.connect(1 << 16, 16, new RcOptions().timeout(8).retryCount(7).rnrRetry(7).minRnrTimer(1))) {
            sim.deviceA.capture(a);
            SendWorkRequest wr = new SendWorkRequest().wrId(1).signaled(true).buffer(pair.a.mr, 0, 256)
                    .rdmaWrite(pair.b.mr.address(), pair.b.mr.rkey());
            pair.a.qp.postSend(wr);
            assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 10_000).status());
        }
        assertEquals("checked 2 bad 0 unsupported 0", CaptureTools.checkIcrc(python, 0, a).getLast());
        // Flip one payload bit of the first record (after 24 + 16 + 20 + 8 + 12 + 16 bytes of headers).
        try (var channel = Files.newByteChannel(a, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            var one = java.nio.ByteBuffer.allocate(1);
            channel.position(24 + 16 + 20 + 8 + 12 + 16 + 5).read(one);
            one.put(0, (byte) (one.get(0) ^ 0x10)).rewind();
            channel.position(24 + 16 + 20 + 8 + 12 + 16 + 5).write(one);
        }
        assertEquals("checked 2 bad 1 unsupported 0", CaptureTools.checkIcrc(python, 1, a).getLast());
    }

    /** Sends, writes, reads, atomics and a flush from a to b, and a send from b to a. */
    private static void exchange(RcPair pair) {
        ReceiveWorkRequest recv = new ReceiveWorkRequest();
        pair.b.qp.postRecv(recv.wrId(1).buffer(pair.b.mr, 32768, 4096));
        pair.a.qp.postRecv(recv.wrId(2).buffer(pair.a.mr, 32768, 4096));
        List<SendWorkRequest> fromA = List.of(
                new SendWorkRequest().signaled(true).wrId(10).buffer(pair.a.mr, 0, 3000).send(),
                new SendWorkRequest().signaled(true).wrId(11).buffer(pair.a.mr, 0, 5000).rdmaWrite(pair.b.mr.address() + 4096, pair.b.mr.rkey()),
                new SendWorkRequest().signaled(true).wrId(12).buffer(pair.a.mr, 16384, 2500).rdmaRead(pair.b.mr.address(), pair.b.mr.rkey()),
                new SendWorkRequest().signaled(true).wrId(13).buffer(pair.a.mr, 24576, 8).fetchAndAdd(pair.b.mr.address() + 24576, pair.b.mr.rkey(), 5),
                new SendWorkRequest().signaled(true).wrId(14).buffer(pair.a.mr, 24584, 8).compareAndSwap(pair.b.mr.address() + 24576, pair.b.mr.rkey(), 5, 9),
                new SendWorkRequest().signaled(true).wrId(15).atomicWrite(pair.b.mr.address() + 24592, pair.b.mr.rkey(), 77),
                new SendWorkRequest().signaled(true).wrId(16).flush(pair.b.mr.address(), pair.b.mr.rkey(), 8192, FlushType.GLOBAL, FlushLevel.RANGE));
        for (SendWorkRequest request : fromA) {
            pair.a.qp.postSend(request);
            assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 10_000).status());
        }
        assertEquals(WcStatus.SUCCESS, pair.await(pair.b.cq, 10_000).status());
        pair.b.qp.postSend(new SendWorkRequest().signaled(true).wrId(20).buffer(pair.b.mr, 0, 100).send());
        assertEquals(WcStatus.SUCCESS, pair.await(pair.b.cq, 10_000).status());
        assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 10_000).status());
    }

    private static int recordsIn(List<String> scapy, Path capture) {
        return (int) scapy.stream().filter(l -> l.startsWith(capture + " ")).count();
    }

    /** The IPv4 IDs the checker printed for packets in {@code capture} from {@code source}, in order. */
    private static List<Integer> idsFrom(List<String> scapy, Path capture, String source) {
        List<Integer> ids = new ArrayList<>();
        for (String line : scapy) {
            String[] f = line.split(" ");
            if (f.length == 7 && f[0].equals(capture.toString()) && f[2].equals(source)) {
                ids.add(Integer.parseInt(f[4]));
            }
        }
        return ids;
    }

}
