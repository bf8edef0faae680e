package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceContext;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.Gid;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.Mtu;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.softroce.engine.Counters;
import dev.verbs4j.softroce.engine.DeviceEngine;
import dev.verbs4j.softroce.engine.QpEngine;
import dev.verbs4j.softroce.transport.InMemoryNetwork;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.OpcodeTable;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.Psn;
import dev.verbs4j.softroce.wire.UdpFlow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
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
    private static final int QKEY = 0x1111_2222;
    private static final int MTU = 1024;
    private static final int RECV_DEPTH = 16;
    private static final int UD_RECV_DEPTH = 32;
    private static final int PACKETS_PER_CYCLE = 2048;
    private static final int PACKETS_IN_ERROR = 64;

    private static final InetSocketAddress TARGET = address("10.77.1.1", 4791);
    private static final InetSocketAddress PEER = address("10.77.1.2", 4791);
    /** The peer's IP from another UDP port: passes the connected QPs' address check. */
    private static final InetSocketAddress PEER_ALIAS = address("10.77.1.2", 4792);
    private static final InetSocketAddress STRANGER = address("10.77.1.3", 4791);
    private static final InetSocketAddress IPV6_STRANGER = address("fd00::77:3", 4791);

    // Slices of the target's guarded block, in order.
    private static final int REMOTE = 0;      // RC/UC remote write, read, atomic, flush
    private static final int READ_ONLY = 1;   // remote read only: must never change
    private static final int OTHER_PD = 2;    // remote write, but in a PD no queue pair uses: must never change
    private static final int RECEIVE = 3;     // local write: receive buffers
    private static final int LOCAL = 4;       // local write: the target's own READ and atomic results
    private static final int UNREGISTERED = 5;
    private static final long[] SLICE_SIZES = {16384, 4096, 4096, 32768, 8192, 4096};
    private static final boolean[] SLICE_WRITABLE = {true, false, false, true, true, false};

    private static final EnumSet<Access> RC_ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL);

    private final InMemoryNetwork network = new InMemoryNetwork(SEED);
    private final RecordingLink targetLink = new RecordingLink(network.attach(TARGET));
    private final RecordingLink peerLink = new RecordingLink(network.attach(PEER));
    private final SoftDevice target = SoftDevice.manual(SoftDeviceConfig.of("fuzz-target", TARGET.getAddress()), targetLink);
    private final SoftDevice peer = SoftDevice.manual(SoftDeviceConfig.of("fuzz-peer", PEER.getAddress()), peerLink);
    private final Link alias = network.attach(PEER_ALIAS);
    private final Link stranger = network.attach(STRANGER);
    private final Link ipv6 = network.attach(IPV6_STRANGER);
    private final UdpFlow aliasFlow = UdpFlow.of(PEER_ALIAS, TARGET);
    private final Arena arena = Arena.ofShared();
    private final PacketMutator.Aim aim = new PacketMutator.Aim();
    private final RcOptions options = new RcOptions().mtu(Mtu.MTU_1024).timeout(10).retryCount(7).rnrRetry(7).minRnrTimer(1)
            .access(RC_ACCESS);
    private final WorkCompletion[] completions = completions(64);
    private final ReceiveWorkRequest recv = new ReceiveWorkRequest();
    private long nowNs = 1_000_000_000L;
    private long fuzzPacketsSent;

    private GuardedMemory memory;
    private DeviceContext targetCtx;
    private ProtectionDomain targetPd;
    private ProtectionDomain otherPd;
    private CompletionQueue targetCq;
    private QueuePair rc;
    private QueuePair uc;
    private QueuePair ud;
    private final List<MemoryRegion> targetRegions = new ArrayList<>();

    private DeviceContext peerCtx;
    private ProtectionDomain peerPd;
    private CompletionQueue peerCq;
    private QueuePair peerRc;
    private QueuePair peerUc;
    private QueuePair peerUd;
    private MemorySegment peerBuffer;
    private MemoryRegion peerRegion;
    private AddressHandle toTarget;

    private int rcReceivesPosted;
    private int ucReceivesPosted;
    private int udReceivesPosted;
    private long receiveSerial;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void hostilePacketsAreCountedAndDroppedWithoutHarmAndTheDeviceKeepsWorking() {
        try {
            open();
            connect();
            List<byte[]> corpus = capture();
            Map<String, Failure> failures = fuzz(corpus);
            settle();
            // Every property is checked and reported, even when an earlier one fails.
            assertAll(
                    () -> assertTrue(failures.isEmpty(), describe(failures)),
                    () -> assertNull(memory.firstProtectedChange(), "memory outside the remotely writable regions changed"),
                    () -> assertEveryPacketAccounted(List.of(rc, uc, ud)),
                    this::assertTheFuzzReachedTheTransport,
                    () -> {
                        QueuePair[] fresh = freshRcExchangeCompletes();
                        assertNull(memory.firstProtectedChange(), "memory outside the remotely writable regions changed");
                        assertEveryPacketAccounted(List.of(rc, uc, ud, fresh[0]));
                        fresh[0].close();
                        fresh[1].close();
                    });
        } finally {
            close();
        }
    }

    /**
     * A READ of 3000 bytes at MTU 1024 holds a responder resource for three PSNs. A FETCH ADD
     * that arrives again with the second of them is a duplicate with no atomic to replay: it
     * must be dropped (IBTA class D, as rxe's {@code duplicate_request} does), not make the
     * responder ask the packet for a RETH it does not have.
     */
    @Test
    void duplicateAtomicInsideAnEarlierReadsPsnRangeIsDroppedWithoutThrowing() {
        try {
            open();
            connect();
            MemoryRegion remote = targetRegions.get(REMOTE);
            int psn = aim.rcExpectedPsn;
            inject(Opcodes.RC_RDMA_READ_REQUEST, rc.qpn(), psn, b -> b.reth().init(remote.address(), remote.rkey(), 3000), 0);
            target.engine().doWork(nowNs);
            long before = memory.slice(REMOTE).get(ValueLayout.JAVA_LONG_UNALIGNED, 8192);
            long duplicates = counters(rc).get(Counters.DUPLICATES);
            String packet = inject(Opcodes.RC_FETCH_ADD, rc.qpn(), Psn.next(psn),
                    b -> b.atomicEth().init(remote.address() + 8192, remote.rkey(), 1, 0), 0);
            assertDoesNotThrow(() -> target.engine().doWork(nowNs), "duplicate FETCH ADD " + packet);
            assertEquals(duplicates + 1, counters(rc).get(Counters.DUPLICATES));
            assertEquals(before, memory.slice(REMOTE).get(ValueLayout.JAVA_LONG_UNALIGNED, 8192), "a duplicate must not execute");
            assertEquals(QpState.RTS, rc.state(), "a duplicate must not break the connection");
        } finally {
            close();
        }
    }

    /**
     * UC has no acknowledgements (IBTA 9.7.4): an RDMA WRITE ONLY whose payload (8 bytes) is
     * shorter than its RETH DMA length (16) is a length error that drops the message (class
     * D, rxe {@code RESPST_ERR_LENGTH} for UC), never a NAK and never an error state; the next
     * good write still lands.
     */
    @Test
    void ucWriteWhosePayloadDisagreesWithItsLengthIsDroppedSilently() {
        try {
            open();
            connect();
            MemoryRegion remote = targetRegions.get(REMOTE);
            String packet = inject(Opcodes.UC_RDMA_WRITE_ONLY, uc.qpn(), aim.ucPsn,
                    b -> b.reth().init(remote.address(), remote.rkey(), 16), 8);
            target.engine().doWork(nowNs);
            assertEquals(0, counters(uc).get(Counters.PACKETS_OUT), "a UC queue pair answered " + packet);
            assertEquals(QpState.RTS, uc.state(), "a UC length error moved the queue pair to error: " + packet);
            inject(Opcodes.UC_RDMA_WRITE_ONLY, uc.qpn(), Psn.next(aim.ucPsn), b -> b.reth().init(remote.address() + 64, remote.rkey(), 8), 8);
            target.engine().doWork(nowNs);
            assertEquals(0x0101010101010101L, memory.slice(REMOTE).get(ValueLayout.JAVA_LONG_UNALIGNED, 64), "the next UC write");
        } finally {
            close();
        }
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
        try {
            open();
            connect();
            MemoryRegion scratch = targetPd.registerMemory(arena.allocate(4096, 64), EnumSet.of(Access.LOCAL_WRITE));
            post(rc, wr().wrId(1).buffer(scratch, 0, 64).rdmaRead(peerRegion.address() + 4096, peerRegion.rkey()));
            target.engine().doWork(nowNs);
            scratch.close();
            peerRc.postRecv(recv.wrId(2).buffer(peerRegion, 32768, 4096));
            post(rc, wr().wrId(3).buffer(targetRegions.get(READ_ONLY), 1000, 16).send());
            target.engine().doWork(nowNs);
            WorkCompletion read = null;
            long end = System.nanoTime() + 10_000_000_000L;
            while (read == null) {
                assertTrue(System.nanoTime() < end, "the READ never completed");
                step();
                int n = targetCq.poll(completions);
                for (int i = 0; i < n; i++) {
                    if (completions[i].wrId() == 1) {
                        read = new WorkCompletion().copyFrom(completions[i]);
                    }
                }
            }
            assertNull(memory.firstProtectedChange(), "the READ response for a deregistered buffer landed elsewhere");
            assertEquals(WcStatus.LOC_PROT_ERR, read.status(), read.toString());
        } finally {
            close();
        }
    }

    /** Builds a packet from the peer's address (another port) to the target, with a correct ICRC; returns it as hex. */
    private String inject(int opcode, int destQp, int psn, java.util.function.Consumer<PacketBuilder> headers, int payload) {
        byte[] bytes = new byte[4096];
        MemorySegment segment = MemorySegment.ofArray(bytes);
        PacketBuilder builder = new PacketBuilder().start(segment, 0, opcode);
        builder.bth().init(opcode, false, false, 0, 0xFFFF, destQp, true, psn);
        headers.accept(builder);
        segment.asSlice(builder.payloadOffset(), payload).fill((byte) 1);
        int length = builder.finish(payload, new Icrc(), aliasFlow, 0);
        alias.send(ByteBuffer.wrap(bytes), length, TARGET);
        return HexFormat.of().formatHex(bytes, 0, length);
    }

    // ---- setup -----------------------------------------------------------------------------

    private void open() {
        memory = new GuardedMemory(arena, SLICE_SIZES, SLICE_WRITABLE, SEED);
        targetCtx = target.open();
        targetPd = targetCtx.allocatePd();
        otherPd = targetCtx.allocatePd();
        targetCq = targetCtx.createCq(8192);
        rc = targetPd.createQp(new QpInitAttributes(QpType.RC, targetCq).capacity(64, RECV_DEPTH, 4, 4, 64)
                .allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE));
        uc = targetPd.createQp(new QpInitAttributes(QpType.UC, targetCq).capacity(16, RECV_DEPTH, 4, 4, 64));
        ud = targetPd.createQp(new QpInitAttributes(QpType.UD, targetCq).capacity(16, UD_RECV_DEPTH, 4, 4, 64));
        targetRegions.add(targetPd.registerMemory(memory.slice(REMOTE), RC_ACCESS));
        targetRegions.add(targetPd.registerMemory(memory.slice(READ_ONLY), EnumSet.of(Access.REMOTE_READ)));
        targetRegions.add(otherPd.registerMemory(memory.slice(OTHER_PD), RC_ACCESS));
        targetRegions.add(targetPd.registerMemory(memory.slice(RECEIVE), EnumSet.of(Access.LOCAL_WRITE)));
        targetRegions.add(targetPd.registerMemory(memory.slice(LOCAL), EnumSet.of(Access.LOCAL_WRITE)));

        peerCtx = peer.open();
        peerPd = peerCtx.allocatePd();
        peerCq = peerCtx.createCq(8192);
        peerRc = peerPd.createQp(new QpInitAttributes(QpType.RC, peerCq).capacity(64, RECV_DEPTH, 4, 4, 64)
                .allow(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE));
        peerUc = peerPd.createQp(new QpInitAttributes(QpType.UC, peerCq).capacity(16, RECV_DEPTH, 4, 4, 64));
        peerUd = peerPd.createQp(new QpInitAttributes(QpType.UD, peerCq).capacity(16, UD_RECV_DEPTH, 4, 4, 64));
        peerBuffer = arena.allocate(65536, 4096);
        for (int i = 0; i < 65536; i++) {
            peerBuffer.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13 + 1));
        }
        peerRegion = peerPd.registerMemory(peerBuffer, RC_ACCESS);
        toTarget = peerPd.createAh(AddressHandleAttributes.to(Gid.of(TARGET.getAddress()), 0));
        peerLink.countSendsTo(TARGET);

        aim.rcQpn = rc.qpn();
        aim.ucQpn = uc.qpn();
        aim.udQpn = ud.qpn();
        aim.qkey = QKEY;
        aim.mtu = MTU;
        aim.keys = new int[targetRegions.size()];
        aim.addresses = new long[targetRegions.size()];
        aim.lengths = new long[targetRegions.size()];
        for (int i = 0; i < targetRegions.size(); i++) {
            MemoryRegion mr = targetRegions.get(i);
            aim.keys[i] = i == RECEIVE || i == LOCAL ? mr.lkey() : mr.rkey();
            aim.addresses[i] = mr.address();
            aim.lengths[i] = mr.length();
        }
        targetLink.observe(this::learnFromTargetAnswer);
    }

    /** Brings every queue pair up: RC and UC towards the peer, UD with its Q_Key. */
    private void connect() {
        SplittableRandom random = new SplittableRandom(SEED ^ 0xC0FFEE);
        connectRc(random.nextInt(1 << 24), random.nextInt(1 << 24));
        connectUc(random.nextInt(1 << 24));
        bringUpUd(ud);
        bringUpUd(peerUd);
        topUpReceives();
    }

    /** RC at both ends: the peer sends from {@code peerPsn}, the target from {@code targetPsn}. */
    private void connectRc(int peerPsn, int targetPsn) {
        QpEndpoint t = RcConnector.localEndpoint(rc, options.psn(targetPsn));
        QpEndpoint p = RcConnector.localEndpoint(peerRc, options.psn(peerPsn));
        RcConnector.bringUp(rc, t, p, options.psn(targetPsn));
        RcConnector.bringUp(peerRc, p, t, options.psn(peerPsn));
        aim.rcExpectedPsn = peerPsn;
        aim.sqFirstPsn = targetPsn;
        aim.sqPsnCount = 0;
        rcReceivesPosted = 0;
    }

    private void connectUc(int psn) {
        bringUpUc(uc, peerUc.qpn(), PEER, psn, 0);
        bringUpUc(peerUc, uc.qpn(), TARGET, 0, psn);
        aim.ucPsn = psn;
        ucReceivesPosted = 0;
    }

    private static void bringUpUc(QueuePair qp, int destQpn, InetSocketAddress to, int rqPsn, int sqPsn) {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).access(RC_ACCESS));
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressHandleAttributes.to(Gid.of(to.getAddress()), 0))
                .pathMtu(Mtu.MTU_1024).destQpn(destQpn).rqPsn(rqPsn));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(sqPsn));
    }

    private static void bringUpUd(QueuePair qp) {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(QKEY));
        qp.modify(new QpAttributes().state(QpState.RTR));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
    }

    // ---- capture: a real exchange, every packet the peer sends recorded --------------------------

    /** Runs every kind of operation in both directions and returns what the peer sent to the target. */
    private List<byte[]> capture() {
        peerLink.recording(true);
        MemoryRegion remote = targetRegions.get(REMOTE);
        long r = remote.address();
        int rkey = remote.rkey();
        post(peerRc, wr().wrId(1).buffer(peerRegion, 0, 100).send());
        post(peerRc, wr().wrId(2).buffer(peerRegion, 0, 2500).send());
        post(peerRc, wr().wrId(3).buffer(peerRegion, 0, 64).sendWithImm(0x77));
        post(peerRc, wr().wrId(4).buffer(peerRegion, 0, 200).rdmaWrite(r + 64, rkey));
        post(peerRc, wr().wrId(5).buffer(peerRegion, 0, 2500).rdmaWrite(r + 4096, rkey));
        post(peerRc, wr().wrId(6).buffer(peerRegion, 0, 500).rdmaWriteWithImm(r + 8192, rkey, 0x66));
        post(peerRc, wr().wrId(7).buffer(peerRegion, 8192, 3000).rdmaRead(r, rkey));
        post(peerRc, wr().wrId(8).buffer(peerRegion, 16384, 8).compareAndSwap(r + 12288, rkey, 0, 5));
        post(peerRc, wr().wrId(9).buffer(peerRegion, 16392, 8).fetchAndAdd(r + 12296, rkey, 3));
        post(peerRc, wr().wrId(10).atomicWrite(r + 12304, rkey, 0x0102030405060708L));
        post(peerRc, wr().wrId(11).flush(r, rkey, 4096, FlushType.GLOBAL, FlushLevel.RANGE));
        post(peerRc, wr().wrId(12).flush(r, rkey, 0, FlushType.GLOBAL, FlushLevel.MR));
        post(peerUc, wr().wrId(13).buffer(peerRegion, 0, 100).send());
        post(peerUc, wr().wrId(14).buffer(peerRegion, 0, 2500).send());
        post(peerUc, wr().wrId(15).buffer(peerRegion, 0, 2500).rdmaWrite(r + 4096, rkey));
        post(peerUc, wr().wrId(16).buffer(peerRegion, 0, 100).rdmaWriteWithImm(r, rkey, 0x55));
        post(peerUd, wr().wrId(17).buffer(peerRegion, 0, 200).send().ud(toTarget, ud.qpn(), QKEY));
        post(peerUd, wr().wrId(18).buffer(peerRegion, 0, 100).sendWithImm(0x44).ud(toTarget, ud.qpn(), QKEY));

        // The target's own requests, so that the peer's responses are recorded too. The SEND
        // goes first, while the peer has no receive posted: it draws an RNR NAK.
        MemoryRegion local = targetRegions.get(LOCAL);
        int peerKey = peerRegion.rkey();
        long p = peerRegion.address();
        post(rc, wr().wrId(101).buffer(local, 0, 300).send());
        awaitTrue(() -> counters(peerRc).get(Counters.RNR_NAKS_SENT) > 0, "an RNR NAK from the peer");
        peerRc.postRecv(recv.wrId(1001).buffer(peerRegion, 32768, 4096));
        post(rc, wr().wrId(102).buffer(local, 0, 3000).rdmaRead(p + 8192, peerKey));
        post(rc, wr().wrId(103).buffer(local, 4096, 100).rdmaRead(p, peerKey));
        post(rc, wr().wrId(104).buffer(local, 4200, 8).compareAndSwap(p + 16384, peerKey, 0, 9));
        post(rc, wr().wrId(105).buffer(local, 4208, 8).fetchAndAdd(p + 16392, peerKey, 1));
        post(rc, wr().wrId(106).buffer(local, 0, 1500).rdmaWrite(p + 20480, peerKey));
        post(rc, wr().wrId(107).atomicWrite(p + 24576, peerKey, 42));
        post(rc, wr().wrId(108).flush(p, peerKey, 4096, FlushType.GLOBAL, FlushLevel.RANGE));

        int expected = 18 + 8 + 1 + 4 + 3 + 2; // peer sends, target sends, peer receive, target RC, UC and UD receives
        int seen = 0;
        long end = System.nanoTime() + 10_000_000_000L;
        while (seen < expected) {
            assertTrue(System.nanoTime() < end, "the capture exchange did not finish: " + seen + " of " + expected + " completions");
            step();
            seen += pollAll(true);
        }
        assertEquals(0x0102030405060708L, memory.slice(REMOTE).get(ValueLayout.JAVA_LONG_UNALIGNED, 12304));
        peerLink.recording(false);
        List<byte[]> corpus = new ArrayList<>();
        TreeSet<String> opcodes = new TreeSet<>();
        for (RecordingLink.Sent s : peerLink.recorded()) {
            if (s.destination().equals(TARGET)) {
                corpus.add(s.bytes());
                opcodes.add(Opcodes.name(s.bytes()[0] & 0xFF));
            }
        }
        System.out.println("fuzz: captured " + corpus.size() + " packets from the peer: " + opcodes);
        for (int op : new int[] {Opcodes.RC_SEND_FIRST, Opcodes.RC_SEND_MIDDLE, Opcodes.RC_SEND_LAST, Opcodes.RC_RDMA_WRITE_FIRST,
                Opcodes.RC_RDMA_READ_REQUEST, Opcodes.RC_RDMA_READ_RESPONSE_FIRST, Opcodes.RC_RDMA_READ_RESPONSE_MIDDLE,
                Opcodes.RC_RDMA_READ_RESPONSE_LAST, Opcodes.RC_RDMA_READ_RESPONSE_ONLY, Opcodes.RC_ACKNOWLEDGE,
                Opcodes.RC_ATOMIC_ACKNOWLEDGE, Opcodes.RC_COMPARE_SWAP, Opcodes.RC_FETCH_ADD, Opcodes.RC_FLUSH, Opcodes.RC_ATOMIC_WRITE,
                Opcodes.UC_SEND_FIRST, Opcodes.UC_RDMA_WRITE_LAST, Opcodes.UC_RDMA_WRITE_ONLY_WITH_IMM, Opcodes.UD_SEND_ONLY,
                Opcodes.UD_SEND_ONLY_WITH_IMM}) {
            assertTrue(opcodes.contains(Opcodes.name(op)), "the capture lacks " + Opcodes.name(op));
        }
        return corpus;
    }

    // ---- the fuzz loop -------------------------------------------------------------------------

    /** An exception that escaped an engine, first seen for one throw site. */
    private record Failure(String site, Throwable first, long packetIndex, String kind, String source, String packetHex, int[] count) {
    }

    private Map<String, Failure> fuzz(List<byte[]> corpus) {
        Map<String, Failure> failures = new LinkedHashMap<>();
        SplittableRandom random = new SplittableRandom(SEED);
        PacketMutator mutator = new PacketMutator(corpus, aim);
        UdpFlow strangerFlow = UdpFlow.of(STRANGER, TARGET);
        ByteBuffer out = ByteBuffer.wrap(mutator.buffer());
        DeviceEngine targetEngine = target.engine();
        long[] byKind = new long[PacketMutator.Kind.values().length];
        long lastCycle = 0;
        long cycles = 0;
        long brokenSince = -1;
        long start = System.nanoTime();
        startCycle(random);
        for (long i = 0; i < PACKETS; i++) {
            int from = random.nextInt(100);
            Link link = from < 80 ? alias : from < 95 ? stranger : ipv6;
            int length = mutator.next(random, from < 80 || from >= 95 ? aliasFlow : strangerFlow);
            byKind[mutator.kind().ordinal()]++;
            link.send(out, length, TARGET);
            fuzzPacketsSent++;
            try {
                targetEngine.doWork(nowNs);
            } catch (RuntimeException | Error e) {
                record(failures, e, i, mutator.kind().name(), link.localAddress().toString(),
                        HexFormat.of().formatHex(mutator.buffer(), 0, length));
            }
            String damage = memory.firstProtectedChange();
            if (damage != null) {
                fail("packet #" + i + " (" + mutator.kind() + ", seed " + SEED + ") changed protected memory at " + damage
                        + "; packet: " + HexFormat.of().formatHex(mutator.buffer(), 0, length));
            }
            nowNs += 1_000;
            if ((i & 63) == 63) {
                runPeer(failures, i);
            }
            if ((i & 15) == 15) {
                pollAll(false);
                topUpReceives();
                boolean broken = rc.state() == QpState.ERR || uc.state() == QpState.ERR || ud.state() == QpState.ERR;
                if (broken && brokenSince < 0) {
                    brokenSince = i;
                }
                // A queue pair in error stays so for a while: packets for it must be dropped too.
                if ((broken && i - brokenSince >= PACKETS_IN_ERROR) || i - lastCycle >= PACKETS_PER_CYCLE) {
                    startCycle(random);
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
                work = peer.engine().doWork(nowNs);
            } catch (RuntimeException | Error e) {
                record(failures, e, packetIndex, "peer engine, answering the target", PEER.toString(), "");
                work = 0;
            }
            try {
                work += target.engine().doWork(nowNs);
            } catch (RuntimeException | Error e) {
                record(failures, e, packetIndex, "target engine, taking the peer's real packets", PEER.toString(), "");
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
            java.io.StringWriter trace = new java.io.StringWriter();
            f.first().printStackTrace(new java.io.PrintWriter(trace));
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

    /**
     * Starts a fresh connection on the same RC and UC queue pairs (both ends reset, new PSNs),
     * posts receives, and has the target send requests of every kind so that responses aimed
     * at it meet outstanding work.
     */
    private void startCycle(SplittableRandom random) {
        pollAll(false);
        for (QueuePair qp : List.of(rc, peerRc, uc, peerUc)) {
            qp.modify(new QpAttributes().state(QpState.RESET));
        }
        if (ud.state() == QpState.ERR) {
            ud.modify(new QpAttributes().state(QpState.RESET));
            bringUpUd(ud);
            udReceivesPosted = 0;
        }
        int targetPsn = random.nextInt(1 << 24);
        connectRc(random.nextInt(1 << 24), targetPsn);
        connectUc(random.nextInt(1 << 24));
        topUpReceives();
        peerRc.postRecv(recv.wrId(1).buffer(peerRegion, 32768, 4096));
        MemoryRegion local = targetRegions.get(LOCAL);
        long p = peerRegion.address();
        int key = peerRegion.rkey();
        post(rc, wr().wrId(201).buffer(local, 0, 2500).rdmaRead(p + 8192, key));
        post(rc, wr().wrId(202).buffer(local, 4200, 8).compareAndSwap(p + 16384, key, 0, 1));
        post(rc, wr().wrId(203).buffer(local, 4208, 8).fetchAndAdd(p + 16392, key, 1));
        post(rc, wr().wrId(204).buffer(local, 0, 1500).rdmaWrite(p + 20480, key));
        post(rc, wr().wrId(205).atomicWrite(p + 24576, key, 7));
        post(rc, wr().wrId(206).flush(p, key, 4096, FlushType.GLOBAL, FlushLevel.RANGE));
        post(rc, wr().wrId(207).buffer(local, 0, 300).send());
        aim.sqFirstPsn = targetPsn;
        aim.sqPsnCount = 3 + 1 + 1 + 2 + 1 + 1 + 1;
    }

    /**
     * Learns the RC responder's expected PSN from the target's answers to the peer, as anyone
     * on the path could: an ACK for PSN n means n + 1 is next; a sequence NAK or RNR NAK names
     * the expected PSN itself.
     */
    private void learnFromTargetAnswer(ByteBuffer packet) {
        if (packet.limit() < 16) {
            return;
        }
        int opcode = packet.get(0) & 0xFF;
        int destQp = packet.getInt(4) & 0xFF_FFFF;
        if (destQp != peerRc.qpn() || !OpcodeTable.has(opcode, OpcodeTable.RESPONSE)) {
            return;
        }
        int psn = packet.getInt(8) & 0xFF_FFFF;
        int learned;
        if (opcode == Opcodes.RC_ACKNOWLEDGE) {
            int syndrome = packet.get(12) & 0xFF;
            if ((syndrome & 0xE0) == 0) {
                learned = Psn.next(psn);
            } else if ((syndrome & 0xE0) == 0x20 || syndrome == 0x60) {
                learned = psn;
            } else {
                return;
            }
        } else if (OpcodeTable.has(opcode, OpcodeTable.LAST) || opcode == Opcodes.RC_ATOMIC_ACKNOWLEDGE) {
            learned = Psn.next(psn);
        } else {
            return;
        }
        if (Psn.compare(learned, aim.rcExpectedPsn) > 0) {
            aim.rcExpectedPsn = learned;
        }
    }

    // ---- after the fuzz ------------------------------------------------------------------------

    /** Runs both engines until neither has work, so every packet in flight has been taken. */
    private void settle() {
        for (int i = 0; i < 10_000; i++) {
            int work = peer.engine().doWork(nowNs);
            work += target.engine().doWork(nowNs);
            nowNs += 1_000;
            if (work == 0 && i > 10) {
                break;
            }
        }
        pollAll(false);
    }

    /**
     * The device counts every packet it receives once, and every packet ends either in one of
     * the device's drop counters or handed to exactly one queue pair (its per-QP PACKETS_IN).
     * DROP_SEND_FAILED is a send-side counter, so it is not part of the receive balance.
     */
    private void assertEveryPacketAccounted(List<QueuePair> qps) {
        Counters device = target.engine().counters();
        long received = device.get(Counters.PACKETS_IN);
        long dropped = device.get(Counters.DROP_MALFORMED) + device.get(Counters.DROP_ICRC) + device.get(Counters.DROP_PKEY)
                + device.get(Counters.DROP_UNKNOWN_QP) + device.get(Counters.DROP_ADDRESS);
        long handed = 0;
        StringBuilder perQp = new StringBuilder();
        for (QueuePair qp : qps) {
            Counters c = counters(qp);
            handed += c.get(Counters.PACKETS_IN);
            perQp.append("\n  ").append(qp.type()).append(" QP 0x").append(Integer.toHexString(qp.qpn())).append(": ").append(nonZero(c));
        }
        System.out.println("fuzz: target device: " + nonZero(device) + perQp);
        assertEquals(fuzzPacketsSent + peerLink.sentToCounted(), received, "packets sent to the device = packets it received");
        assertEquals(device.drops() - device.get(Counters.DROP_SEND_FAILED), dropped,
                "a device-level drop counter outside the receive path moved: " + nonZero(device));
        assertEquals(received, dropped + handed, "received = device drops + packets handed to queue pairs");
    }

    private void assertTheFuzzReachedTheTransport() {
        Counters device = target.engine().counters();
        for (int counter : new int[] {Counters.DROP_MALFORMED, Counters.DROP_ICRC, Counters.DROP_PKEY, Counters.DROP_UNKNOWN_QP,
                Counters.DROP_ADDRESS}) {
            assertTrue(device.get(counter) > 0, "no packet was dropped for reason " + counter + ": " + nonZero(device));
        }
        Counters rcCounters = counters(rc);
        for (int counter : new int[] {Counters.DUPLICATES, Counters.OUT_OF_SEQUENCE, Counters.NAKS_SENT, Counters.DROP_QP_STATE,
                Counters.DROP_OPCODE_SEQUENCE, Counters.DROP_LENGTH, Counters.DROP_GHOST_RESPONSE}) {
            assertTrue(rcCounters.get(counter) > 0, "the RC queue pair never saw counter " + counter + ": " + nonZero(rcCounters));
        }
        assertTrue(counters(ud).get(Counters.DROP_QKEY) > 0, "no UD packet had a wrong Q_Key: " + nonZero(counters(ud)));
        assertTrue(counters(uc).get(Counters.PACKETS_IN) > 0, "no packet reached the UC queue pair");
        assertTrue(memory.sliceChanged(REMOTE), "no hostile write ever landed in the remotely writable region");
        assertTrue(rcCounters.get(Counters.PACKETS_IN) > PACKETS / 10,
                "too few packets reached the RC queue pair: " + rcCounters.get(Counters.PACKETS_IN));
    }

    /** A new RC pair between the same two devices exchanges and checks data. */
    private QueuePair[] freshRcExchangeCompletes() {
        QueuePair t = targetPd.createQp(new QpInitAttributes(QpType.RC, targetCq).capacity(16, 16, 4, 4, 64));
        QueuePair p = peerPd.createQp(new QpInitAttributes(QpType.RC, peerCq).capacity(16, 16, 4, 4, 64));
        RcOptions fresh = new RcOptions().mtu(Mtu.MTU_1024).access(RC_ACCESS);
        QpEndpoint et = RcConnector.localEndpoint(t, fresh.psn(0x123456));
        QpEndpoint ep = RcConnector.localEndpoint(p, fresh.psn(0xfffffe));
        RcConnector.bringUp(t, et, ep, fresh.psn(0x123456));
        RcConnector.bringUp(p, ep, et, fresh.psn(0xfffffe));
        pollAll(false);
        MemoryRegion receive = targetRegions.get(RECEIVE);
        MemoryRegion remote = targetRegions.get(REMOTE);
        MemoryRegion readOnly = targetRegions.get(READ_ONLY);
        t.postRecv(new ReceiveWorkRequest().wrId(900).buffer(receive, 0, 4096));
        SendWorkRequest wr = new SendWorkRequest();
        p.postSend(wr.wrId(901).signaled(true).buffer(peerRegion, 0, 3000).send());
        p.postSend(wr.wrId(902).signaled(true).buffer(peerRegion, 4096, 5000).rdmaWrite(remote.address() + 1000, remote.rkey()));
        p.postSend(wr.wrId(903).signaled(true).buffer(peerRegion, 40000, 4096).rdmaRead(readOnly.address(), readOnly.rkey()));
        int needed = 4;
        long end = System.nanoTime() + 10_000_000_000L;
        while (needed > 0) {
            assertTrue(System.nanoTime() < end, "the fresh RC exchange did not complete after the fuzz");
            step();
            for (CompletionQueue cq : List.of(targetCq, peerCq)) {
                int n = cq.poll(completions);
                for (int i = 0; i < n; i++) {
                    WorkCompletion wc = completions[i];
                    if (wc.wrId() >= 900 && wc.wrId() <= 903) {
                        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                        needed--;
                    }
                }
            }
        }
        assertEquals(-1, peerBuffer.asSlice(0, 3000).mismatch(memory.slice(RECEIVE).asSlice(0, 3000)), "sent bytes");
        assertEquals(-1, peerBuffer.asSlice(4096, 5000).mismatch(memory.slice(REMOTE).asSlice(1000, 5000)), "written bytes");
        assertEquals(-1, memory.slice(READ_ONLY).mismatch(peerBuffer.asSlice(40000, 4096)), "read bytes");
        return new QueuePair[] {t, p};
    }

    // ---- helpers -----------------------------------------------------------------------------

    private void post(QueuePair qp, SendWorkRequest wr) {
        qp.postSend(wr.signaled(true));
    }

    /** A new request for each post on the control path, so no field of an earlier one carries over. */
    private static SendWorkRequest wr() {
        return new SendWorkRequest();
    }

    /** One step of both engines; an idle step moves the clock half a millisecond. */
    private void step() {
        int work = target.engine().doWork(nowNs) + peer.engine().doWork(nowNs);
        nowNs += work == 0 ? 500_000 : 1_000;
    }

    private void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "no " + what);
            step();
        }
    }

    /**
     * Polls both devices' completion queues, keeping count of the target's posted receives;
     * with {@code successOnly} every completion must be a success (the capture exchange).
     *
     * @return the number of completions seen
     */
    private int pollAll(boolean successOnly) {
        int seen = 0;
        int n;
        while ((n = targetCq.poll(completions)) > 0) {
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = completions[i];
                if (successOnly) {
                    assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                }
                if (wc.opcode().name().startsWith("RECV")) {
                    if (wc.qpNum() == rc.qpn()) {
                        rcReceivesPosted--;
                    } else if (wc.qpNum() == uc.qpn()) {
                        ucReceivesPosted--;
                    } else if (wc.qpNum() == ud.qpn()) {
                        udReceivesPosted--;
                    }
                }
            }
            seen += n;
        }
        while ((n = peerCq.poll(completions)) > 0) {
            if (successOnly) {
                for (int i = 0; i < n; i++) {
                    assertEquals(WcStatus.SUCCESS, completions[i].status(), completions[i].toString());
                }
            }
            seen += n;
        }
        return seen;
    }

    /** Keeps every receive queue of the target full (receives only count down through completions). */
    private void topUpReceives() {
        MemoryRegion receive = targetRegions.get(RECEIVE);
        if (rc.state() != QpState.RESET && rc.state() != QpState.ERR) {
            for (; rcReceivesPosted < RECV_DEPTH; rcReceivesPosted++) {
                rc.postRecv(recv.wrId(receiveSerial++).buffer(receive, (receiveSerial & 3) * 4096, 4096));
            }
        }
        if (uc.state() != QpState.RESET && uc.state() != QpState.ERR) {
            for (; ucReceivesPosted < RECV_DEPTH; ucReceivesPosted++) {
                uc.postRecv(recv.wrId(receiveSerial++).buffer(receive, (receiveSerial & 3) * 4096, 4096));
            }
        }
        if (ud.state() != QpState.RESET && ud.state() != QpState.ERR) {
            for (; udReceivesPosted < UD_RECV_DEPTH; udReceivesPosted++) {
                ud.postRecv(recv.wrId(receiveSerial++).buffer(receive, 16384 + (receiveSerial & 3) * 4096, 4096));
            }
        }
    }

    private static Counters counters(QueuePair qp) {
        QpEngine engine = ((SoftQp) qp).engine;
        return engine.counters();
    }

    private static String nonZero(Counters c) {
        StringBuilder sb = new StringBuilder();
        c.snapshot().forEach((name, value) -> {
            if (value != 0) {
                sb.append(sb.isEmpty() ? "" : ", ").append(name).append('=').append(value);
            }
        });
        return sb.toString();
    }

    private static WorkCompletion[] completions(int n) {
        WorkCompletion[] wcs = new WorkCompletion[n];
        for (int i = 0; i < n; i++) {
            wcs[i] = new WorkCompletion();
        }
        return wcs;
    }

    private static InetSocketAddress address(String ip, int port) {
        return new InetSocketAddress(InetAddress.ofLiteral(ip), port);
    }

    private void close() {
        for (AutoCloseable c : new AutoCloseable[] {rc, uc, ud, peerRc, peerUc, peerUd, toTarget}) {
            closeQuietly(c);
        }
        targetRegions.forEach(MalformedPacketFuzzTest::closeQuietly);
        for (AutoCloseable c : new AutoCloseable[] {peerRegion, targetCq, peerCq, targetPd, otherPd, peerPd, targetCtx, peerCtx}) {
            closeQuietly(c);
        }
        alias.close();
        stranger.close();
        ipv6.close();
        arena.close();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // cleanup after a failure must not hide it
        }
    }
}
