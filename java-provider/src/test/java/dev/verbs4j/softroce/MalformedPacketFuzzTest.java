package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.QpState;
import dev.verbs4j.QueuePair;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.engine.Counters;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.transport.InMemoryNetwork;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.Psn;
import dev.verbs4j.softroce.wire.UdpFlow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A million hostile packets at a soft device with live RC, UC and UD queue pairs: packets
 * captured from a real exchange with its peer and then mutated (mostly with a correct ICRC
 * again, so they reach the transport logic), packets built for the live QPNs, PSNs and keys,
 * and random bytes, from the peer's own address, from a stranger and from an IPv6 address.
 * The device must count and drop what it cannot use and never throw out of {@code doWork},
 * never write outside the regions the remote side may write, account for every packet in its
 * counters, and still work afterwards.
 *
 * <p>Everything runs on an {@link InMemoryNetwork} with a fake clock; the run is a function of
 * {@link #SEED} (override with {@code -Dverbs4j.fuzz.seed=...}), except that memory keys and
 * buffer addresses come from the engine and the allocator, and the fuzzer only uses them
 * relative to the live ones.
 */
class MalformedPacketFuzzTest {
    private static final long SEED = Long.getLong("verbs4j.fuzz.seed", 0x5EED_F022L);
    private static final int PACKETS = Integer.getInteger("verbs4j.fuzz.packets", 1_000_000);
    private static final int PACKETS_PER_CYCLE = 2048;
    private static final int PACKETS_IN_ERROR = 16;

    private final FuzzRig rig = new FuzzRig(SEED);
    private long fuzzPacketsSent;

    @AfterEach
    void close() {
        rig.close();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void hostilePacketsAreCountedAndDroppedWithoutHarmAndTheDeviceKeepsWorking() {
        rig.connect();
        List<byte[]> corpus = rig.capture();
        Map<String, Failure> failures = fuzz(corpus);
        rig.settle();
        // Every property is checked and reported, even when an earlier one fails.
        assertAll(
                () -> assertTrue(failures.isEmpty(), describe(failures)),
                () -> assertNull(rig.memory.firstProtectedChange(), "memory outside the remotely writable regions changed"),
                () -> assertEveryPacketAccounted(List.of(rig.rc, rig.uc, rig.ud)),
                this::assertTheFuzzReachedTheTransport,
                // The target never posts on its UC and UD queue pairs, and only RC answers what
                // it receives (rxe's acknowledge() returns at once for other types).
                () -> assertEquals(0, FuzzRig.counters(rig.uc).get(Counters.PACKETS_OUT), "the UC queue pair answered: " + FuzzRig.nonZero(FuzzRig.counters(rig.uc))),
                () -> assertEquals(0, FuzzRig.counters(rig.ud).get(Counters.PACKETS_OUT), "the UD queue pair answered: " + FuzzRig.nonZero(FuzzRig.counters(rig.ud))),
                () -> {
                    QueuePair[] fresh = rig.freshRcExchangeCompletes();
                    assertNull(rig.memory.firstProtectedChange(), "memory outside the remotely writable regions changed");
                    assertEveryPacketAccounted(List.of(rig.rc, rig.uc, rig.ud, fresh[0]));
                    fresh[0].close();
                    fresh[1].close();
                });
    }

    /**
     * Datagrams to QP1, where the connection manager listens: random MADs (half of them with
     * a CM header and a real attribute id), wrong Q_Keys, short payloads and other opcodes are
     * dropped and counted or answered (a REQ for no listener gets its REJ); none faults the
     * engine, and RC traffic goes on.
     */
    @Test
    void hostileMadsToQp1AreDroppedOrAnsweredAndNeverFaultTheDevice() {
        rig.connect();
        var engine = rig.target.engine();
        engine.gsiAgent(dev.verbs4j.softroce.cm.CmAgent.withDefaults(engine::sendMad, (serviceId, destination) -> null,
                1, FuzzRig.TARGET.getAddress(), dev.verbs4j.Mtu.MTU_1024, new java.util.Random(3)));
        java.util.Random random = new java.util.Random(11);
        int injected = 600;
        for (int i = 0; i < injected; i++) {
            int kind = i % 4;
            int qkey = kind == 1 ? random.nextInt() : dev.verbs4j.softroce.engine.DeviceEngine.GSI_QKEY;
            int opcode = kind == 2 ? Opcodes.UD_SEND_ONLY_WITH_IMM : Opcodes.UD_SEND_ONLY;
            int payload = kind == 3 ? random.nextInt(256) : 256;
            rig.inject(opcode, dev.verbs4j.softroce.engine.DeviceEngine.GSI_QPN, random.nextInt(1 << 24), b -> {
                b.deth().init(qkey, 1);
                if (opcode == Opcodes.UD_SEND_ONLY_WITH_IMM) {
                    b.immDt().immData(7);
                }
                byte[] mad = new byte[256];
                random.nextBytes(mad);
                if (random.nextBoolean()) {
                    mad[0] = 1;
                    mad[1] = 7;
                    mad[2] = 2;
                    mad[3] = 3;
                    mad[16] = 0;
                    mad[17] = (byte) (0x10 + random.nextInt(7));
                }
                java.lang.foreign.MemorySegment.copy(mad, 0, b.bth().segment(), java.lang.foreign.ValueLayout.JAVA_BYTE,
                        b.payloadOffset(), Math.min(256, payload));
            }, payload);
            rig.step();
        }
        rig.settle();
        Counters c = engine.counters();
        assertEquals(0, c.get(Counters.ENGINE_FAULTS), "engine faults: " + FuzzRig.nonZero(c));
        assertTrue(c.get(Counters.DROP_MAD) >= injected / 2, "MADs dropped: " + FuzzRig.nonZero(c));
        QueuePair[] fresh = rig.freshRcExchangeCompletes();
        fresh[0].close();
        fresh[1].close();
    }

    /**
     * A READ of 3000 bytes at MTU 1024 holds a responder resource for three PSNs. A FETCH ADD
     * that arrives again with the second of them is a duplicate with no atomic to replay: it
     * must be dropped (IBTA class D, as rxe's {@code duplicate_request} does), not make the
     * responder ask the packet for a RETH it does not have.
     */
    @Test
    void duplicateAtomicInsideAnEarlierReadsPsnRangeIsDroppedWithoutThrowing() {
        rig.connect();
        MemoryRegion remote = rig.targetRegions.get(FuzzRig.REMOTE);
        int psn = rig.aim.rcExpectedPsn;
        rig.inject(Opcodes.RC_RDMA_READ_REQUEST, rig.rc.qpn(), psn, b -> b.reth().init(remote.address(), remote.rkey(), 3000), 0);
        rig.target.engine().doWork(rig.nowNs);
        long before = rig.memory.slice(FuzzRig.REMOTE).get(ValueLayout.JAVA_LONG_UNALIGNED, 8192);
        long duplicates = FuzzRig.counters(rig.rc).get(Counters.DUPLICATES);
        String packet = rig.inject(Opcodes.RC_FETCH_ADD, rig.rc.qpn(), Psn.next(psn),
                b -> b.atomicEth().init(remote.address() + 8192, remote.rkey(), 1, 0), 0);
        assertDoesNotThrow(() -> rig.target.engine().doWork(rig.nowNs), "duplicate FETCH ADD " + packet);
        assertEquals(duplicates + 1, FuzzRig.counters(rig.rc).get(Counters.DUPLICATES));
        assertEquals(before, rig.memory.slice(FuzzRig.REMOTE).get(ValueLayout.JAVA_LONG_UNALIGNED, 8192), "a duplicate must not execute");
        assertEquals(QpState.RTS, rig.rc.state(), "a duplicate must not break the connection");
    }

    /**
     * A READ repeated with an address so high that address + length passes 2^63: the repeat
     * asks for bytes the first READ did not cover, so it is dropped (class D, as rxe's
     * {@code duplicate_request} compares unsigned), not answered and not a NAK that errs the QP.
     */
    @Test
    void duplicateReadPastTheSignedAddressRangeIsDropped() {
        rig.connect();
        MemoryRegion remote = rig.targetRegions.get(FuzzRig.REMOTE);
        int psn = rig.aim.rcExpectedPsn;
        rig.inject(Opcodes.RC_RDMA_READ_REQUEST, rig.rc.qpn(), psn, b -> b.reth().init(remote.address(), remote.rkey(), 3000), 0);
        rig.target.engine().doWork(rig.nowNs);
        long duplicates = FuzzRig.counters(rig.rc).get(Counters.DUPLICATES);
        String packet = rig.inject(Opcodes.RC_RDMA_READ_REQUEST, rig.rc.qpn(), psn,
                b -> b.reth().init(0x7FFF_FFFF_FFFF_FF00L, remote.rkey(), 3000), 0);
        assertDoesNotThrow(() -> rig.target.engine().doWork(rig.nowNs), "duplicate READ " + packet);
        assertEquals(duplicates + 1, FuzzRig.counters(rig.rc).get(Counters.DUPLICATES));
        assertEquals(QpState.RTS, rig.rc.state(), "a duplicate must not break the connection");
    }

    /**
     * UC has no acknowledgements (rxe's {@code acknowledge()} answers RC only): an RDMA WRITE
     * ONLY whose payload (8 bytes) is shorter than its RETH DMA length (16) is a length error
     * that drops the message (class D, rxe {@code RESPST_ERR_LENGTH} for UC), never a NAK and
     * never an error state; the next good write still lands.
     */
    @Test
    void ucWriteWhosePayloadDisagreesWithItsLengthIsDroppedSilently() {
        rig.connect();
        MemoryRegion remote = rig.targetRegions.get(FuzzRig.REMOTE);
        String packet = rig.inject(Opcodes.UC_RDMA_WRITE_ONLY, rig.uc.qpn(), rig.aim.ucPsn,
                b -> b.reth().init(remote.address(), remote.rkey(), 16), 8);
        rig.target.engine().doWork(rig.nowNs);
        assertEquals(0, FuzzRig.counters(rig.uc).get(Counters.PACKETS_OUT), "a UC queue pair answered " + packet);
        assertEquals(QpState.RTS, rig.uc.state(), "a UC length error moved the queue pair to error: " + packet);
        rig.inject(Opcodes.UC_RDMA_WRITE_ONLY, rig.uc.qpn(), Psn.next(rig.aim.ucPsn), b -> b.reth().init(remote.address() + 64, remote.rkey(), 8), 8);
        rig.target.engine().doWork(rig.nowNs);
        assertEquals(0x0101010101010101L, rig.memory.slice(FuzzRig.REMOTE).get(ValueLayout.JAVA_LONG_UNALIGNED, 64), "the next UC write");
    }

    /**
     * An application may deregister the buffer of an outstanding RDMA READ. When the response
     * arrives, its bytes must go nowhere and the READ must complete with a local protection
     * error (rxe {@code do_read}: {@code IB_WC_LOC_PROT_ERR}); they must not land in whichever
     * region the engine's last key check happened to resolve, here the read-only region a
     * SEND was gathered from.
     */
    @Test
    void readResponseForADeregisteredBufferLandsNowhere() {
        final long readWrId = 1L << 40; // apart from the receives' serial numbers
        rig.connect();
        MemoryRegion scratch = rig.targetPd.registerMemory(rig.arena.allocate(4096, 64), EnumSet.of(Access.LOCAL_WRITE));
        rig.post(rig.rc, FuzzRig.wr().wrId(readWrId).buffer(scratch, 0, 64).rdmaRead(rig.peerRegion.address() + 4096, rig.peerRegion.rkey()));
        rig.target.engine().doWork(rig.nowNs);
        scratch.close();
        rig.peerRc.postRecv(rig.recv.wrId(2).buffer(rig.peerRegion, 32768, 4096));
        rig.post(rig.rc, FuzzRig.wr().wrId(readWrId + 1).buffer(rig.targetRegions.get(FuzzRig.READ_ONLY), 1000, 16).send());
        rig.target.engine().doWork(rig.nowNs);
        WorkCompletion read = null;
        long end = System.nanoTime() + 10_000_000_000L;
        while (read == null) {
            assertTrue(System.nanoTime() < end, "the READ never completed");
            rig.step();
            int n = rig.targetCq.poll(rig.completions);
            for (int i = 0; i < n; i++) {
                if (rig.completions[i].wrId() == readWrId) {
                    read = new WorkCompletion().copyFrom(rig.completions[i]);
                }
            }
        }
        assertNull(rig.memory.firstProtectedChange(), "the READ response for a deregistered buffer landed elsewhere");
        assertEquals(WcStatus.LOC_PROT_ERR, read.status(), read.toString());
    }

    // ---- the fuzz loop -------------------------------------------------------------------------

    /** An exception that escaped an engine, first seen for one throw site. */
    private record Failure(String site, Throwable first, long packetIndex, String kind, String source, String packetHex, int[] count) {
    }

    private Map<String, Failure> fuzz(List<byte[]> corpus) {
        Map<String, Failure> failures = new LinkedHashMap<>();
        SplittableRandom random = new SplittableRandom(SEED);
        PacketMutator mutator = new PacketMutator(corpus, rig.aim);
        UdpFlow strangerFlow = UdpFlow.of(FuzzRig.STRANGER, FuzzRig.TARGET);
        ByteBuffer out = ByteBuffer.wrap(mutator.buffer());
        DeviceEngine targetEngine = rig.target.engine();
        long[] byKind = new long[PacketMutator.Kind.values().length];
        long lastCycle = 0;
        long cycles = 0;
        long brokenSince = -1;
        long start = System.nanoTime();
        rig.startCycle(random);
        for (long i = 0; i < PACKETS; i++) {
            int from = random.nextInt(100);
            Link link = from < 80 ? rig.alias : from < 95 ? rig.stranger : rig.ipv6;
            int length = mutator.next(random, from < 80 || from >= 95 ? rig.aliasFlow : strangerFlow);
            byKind[mutator.kind().ordinal()]++;
            link.send(out, length, FuzzRig.TARGET);
            fuzzPacketsSent++;
            try {
                targetEngine.doWork(rig.nowNs);
            } catch (RuntimeException | Error e) {
                record(failures, e, i, mutator.kind().name(), link.localAddress().toString(),
                        HexFormat.of().formatHex(mutator.buffer(), 0, length));
            }
            String damage = rig.memory.firstProtectedChange();
            if (damage != null) {
                fail("packet #" + i + " (" + mutator.kind() + ", seed " + SEED + ") changed protected memory at " + damage
                        + "; packet: " + HexFormat.of().formatHex(mutator.buffer(), 0, length));
            }
            rig.nowNs += 1_000;
            if ((i & 63) == 63) {
                runPeer(failures, i);
            }
            if ((i & 15) == 15) {
                rig.pollAll(false);
                rig.topUpReceives();
                boolean broken = rig.rc.state() == QpState.ERR || rig.uc.state() == QpState.ERR || rig.ud.state() == QpState.ERR;
                if (broken && brokenSince < 0) {
                    brokenSince = i;
                }
                // A queue pair in error stays so for a while: packets for it must be dropped too.
                if ((broken && i - brokenSince >= PACKETS_IN_ERROR) || i - lastCycle >= PACKETS_PER_CYCLE) {
                    rig.startCycle(random);
                    lastCycle = i;
                    brokenSince = -1;
                    cycles++;
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("fuzz: %,d packets in %.2f s = %,.0f packets/s (seed 0x%x); by kind %s%n", PACKETS, seconds,
                PACKETS / seconds, SEED, kinds(byKind));
        System.out.printf("fuzz: %,d reconnections of the RC and UC queue pairs%n", cycles);
        return failures;
    }

    /** Lets the peer answer what the target sent, then the target take the peer's packets, both watched. */
    private void runPeer(Map<String, Failure> failures, long packetIndex) {
        for (int n = 0; n < 16; n++) {
            int work;
            try {
                work = rig.peer.engine().doWork(rig.nowNs);
            } catch (RuntimeException | Error e) {
                record(failures, e, packetIndex, "peer engine, answering the target", FuzzRig.PEER.toString(), "");
                work = 0;
            }
            try {
                work += rig.target.engine().doWork(rig.nowNs);
            } catch (RuntimeException | Error e) {
                record(failures, e, packetIndex, "target engine, taking the peer's real packets", FuzzRig.PEER.toString(), "");
            }
            if (work == 0) {
                break;
            }
        }
    }

    private static void record(Map<String, Failure> failures, Throwable e, long index, String kind, String source, String hex) {
        StackTraceElement top = e.getStackTrace().length > 0 ? e.getStackTrace()[0] : null;
        String site = e.getClass().getName() + " at " + top;
        Failure f = failures.get(site);
        if (f == null && failures.size() < 20) {
            failures.put(site, new Failure(site, e, index, kind, source, hex, new int[] {1}));
        } else if (f != null) {
            f.count()[0]++;
        }
    }

    private static String describe(Map<String, Failure> failures) {
        StringBuilder sb = new StringBuilder(failures.size() + " distinct exception site(s) escaped doWork (seed 0x"
                + Long.toHexString(SEED) + "):");
        for (Failure f : failures.values()) {
            StringWriter trace = new StringWriter();
            f.first().printStackTrace(new PrintWriter(trace));
            sb.append("\n- ").append(f.count()[0]).append(" time(s), first at packet #").append(f.packetIndex())
                    .append(" (").append(f.kind()).append(", from ").append(f.source()).append(")")
                    .append(f.packetHex().isEmpty() ? "" : "\n  packet: " + f.packetHex())
                    .append("\n  ").append(trace.toString().lines().limit(8).reduce((a, b) -> a + "\n  " + b).orElse(""));
        }
        return sb.toString();
    }

    private static String kinds(long[] byKind) {
        StringBuilder sb = new StringBuilder();
        for (PacketMutator.Kind k : PacketMutator.Kind.values()) {
            sb.append(sb.isEmpty() ? "" : ", ").append(k).append(' ').append(byKind[k.ordinal()]);
        }
        return sb.toString();
    }

    // ---- after the fuzz ------------------------------------------------------------------------

    /**
     * The device counts every packet it receives once, and every packet ends either in one of
     * the device's drop counters or handed to exactly one queue pair (its per-QP PACKETS_IN).
     * DROP_SEND_FAILED is a send-side counter, so it is not part of the receive balance.
     */
    private void assertEveryPacketAccounted(List<QueuePair> qps) {
        Counters device = rig.target.engine().counters();
        long received = device.get(Counters.PACKETS_IN);
        long dropped = device.get(Counters.DROP_MALFORMED) + device.get(Counters.DROP_ICRC) + device.get(Counters.DROP_PKEY)
                + device.get(Counters.DROP_UNKNOWN_QP) + device.get(Counters.DROP_ADDRESS) + device.get(Counters.DROP_MAD);
        long handed = 0;
        StringBuilder perQp = new StringBuilder();
        for (QueuePair qp : qps) {
            Counters c = FuzzRig.counters(qp);
            handed += c.get(Counters.PACKETS_IN);
            perQp.append("\n  ").append(qp.type()).append(" QP 0x").append(Integer.toHexString(qp.qpn())).append(": ").append(FuzzRig.nonZero(c));
        }
        System.out.println("fuzz: target device: " + FuzzRig.nonZero(device) + perQp);
        assertEquals(fuzzPacketsSent + rig.peerLink.sentToCounted(), received, "packets sent to the device = packets it received");
        assertEquals(device.drops() - device.get(Counters.DROP_SEND_FAILED), dropped,
                "a device-level drop counter outside the receive path moved: " + FuzzRig.nonZero(device));
        assertEquals(received, dropped + handed + device.get(Counters.MADS_IN),
                "received = device drops + packets handed to queue pairs + MADs taken by QP1's agent");
    }

    private void assertTheFuzzReachedTheTransport() {
        Counters device = rig.target.engine().counters();
        for (int counter : new int[] {Counters.DROP_MALFORMED, Counters.DROP_ICRC, Counters.DROP_PKEY, Counters.DROP_UNKNOWN_QP,
                Counters.DROP_ADDRESS}) {
            assertTrue(device.get(counter) > 0, "no packet was dropped for reason " + counter + ": " + FuzzRig.nonZero(device));
        }
        Counters rcCounters = FuzzRig.counters(rig.rc);
        for (int counter : new int[] {Counters.DUPLICATES, Counters.OUT_OF_SEQUENCE, Counters.NAKS_SENT, Counters.DROP_QP_STATE,
                Counters.DROP_OPCODE_SEQUENCE, Counters.DROP_LENGTH, Counters.DROP_GHOST_RESPONSE}) {
            assertTrue(rcCounters.get(counter) > 0, "the RC queue pair never saw counter " + counter + ": " + FuzzRig.nonZero(rcCounters));
        }
        assertTrue(FuzzRig.counters(rig.ud).get(Counters.DROP_QKEY) > 0, "no UD packet had a wrong Q_Key: " + FuzzRig.nonZero(FuzzRig.counters(rig.ud)));
        assertTrue(FuzzRig.counters(rig.uc).get(Counters.PACKETS_IN) > 0, "no packet reached the UC queue pair");
        assertTrue(rig.memory.sliceChanged(FuzzRig.REMOTE), "no hostile write ever landed in the remotely writable region");
        assertTrue(rcCounters.get(Counters.PACKETS_IN) > PACKETS / 10,
                "too few packets reached the RC queue pair: " + rcCounters.get(Counters.PACKETS_IN));
    }
}
