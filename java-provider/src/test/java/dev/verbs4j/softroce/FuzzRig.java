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
import dev.verbs4j.softroce.engine.QpEngine;
import dev.verbs4j.softroce.transport.InMemoryNetwork;
import dev.verbs4j.softroce.transport.Link;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.OpcodeTable;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.Psn;
import dev.verbs4j.softroce.wire.UdpFlow;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scene of the packet fuzz: a target soft device and its peer on an {@link InMemoryNetwork}
 * driven by a fake clock, with live RC, UC and UD queue pairs between them, the target's
 * regions cut from one {@link GuardedMemory} block, endpoints that send from the peer's IP
 * (another port), from a stranger and from IPv6, and what the fuzzer aims at ({@link
 * PacketMutator.Aim}) kept current. It also runs the real exchange whose packets the fuzzer
 * mutates, reconnects the queue pairs between rounds and keeps receives posted.
 */
final class FuzzRig implements AutoCloseable {
    static final int QKEY = 0x1111_2222;
    static final int MTU = 1024;
    static final int RECV_DEPTH = 16;
    static final int UD_RECV_DEPTH = 32;

    static final InetSocketAddress TARGET = address("10.77.1.1", 4791);
    static final InetSocketAddress PEER = address("10.77.1.2", 4791);
    /** The peer's IP from another UDP port: passes the connected QPs' address check. */
    static final InetSocketAddress PEER_ALIAS = address("10.77.1.2", 4792);
    static final InetSocketAddress STRANGER = address("10.77.1.3", 4791);
    static final InetSocketAddress IPV6_STRANGER = address("fd00::77:3", 4791);

    // Slices of the target's guarded block, in order.
    static final int REMOTE = 0;      // RC/UC remote write, read, atomic, flush
    static final int READ_ONLY = 1;   // remote read only: must never change
    static final int OTHER_PD = 2;    // remote write, but in a PD no queue pair uses: must never change
    static final int RECEIVE = 3;     // local write: receive buffers
    static final int LOCAL = 4;       // local write: the target's own READ and atomic results
    static final int UNREGISTERED = 5; // never registered: must never change
    static final long[] SLICE_SIZES = {16384, 4096, 4096, 32768, 8192, 4096};
    static final boolean[] SLICE_WRITABLE = {true, false, false, true, true, false};

    static final EnumSet<Access> RC_ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
            Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL);

    final InMemoryNetwork network = new InMemoryNetwork(0);
    final RecordingLink targetLink = new RecordingLink(network.attach(TARGET));
    final RecordingLink peerLink = new RecordingLink(network.attach(PEER));
    final SoftDevice target = SoftDevice.manual(SoftDeviceConfig.of("fuzz-target", TARGET.getAddress()), targetLink);
    final SoftDevice peer = SoftDevice.manual(SoftDeviceConfig.of("fuzz-peer", PEER.getAddress()), peerLink);
    final Link alias = network.attach(PEER_ALIAS);
    final Link stranger = network.attach(STRANGER);
    final Link ipv6 = network.attach(IPV6_STRANGER);
    final UdpFlow aliasFlow = UdpFlow.of(PEER_ALIAS, TARGET);
    final Arena arena = Arena.ofShared();
    final PacketMutator.Aim aim = new PacketMutator.Aim();
    final RcOptions options = new RcOptions().mtu(Mtu.MTU_1024).timeout(10).retryCount(7).rnrRetry(7).minRnrTimer(1)
            .access(RC_ACCESS);
    final WorkCompletion[] completions = completions(64);
    final ReceiveWorkRequest recv = new ReceiveWorkRequest();
    private final long seed;
    long nowNs = 1_000_000_000L;

    GuardedMemory memory;
    DeviceContext targetCtx;
    ProtectionDomain targetPd;
    ProtectionDomain otherPd;
    CompletionQueue targetCq;
    QueuePair rc;
    QueuePair uc;
    QueuePair ud;
    final List<MemoryRegion> targetRegions = new ArrayList<>();

    DeviceContext peerCtx;
    ProtectionDomain peerPd;
    CompletionQueue peerCq;
    QueuePair peerRc;
    QueuePair peerUc;
    QueuePair peerUd;
    MemorySegment peerBuffer;
    MemoryRegion peerRegion;
    AddressHandle toTarget;

    int rcReceivesPosted;
    int ucReceivesPosted;
    int udReceivesPosted;
    long receiveSerial;

    FuzzRig(long seed) {
        this.seed = seed;
        memory = new GuardedMemory(arena, SLICE_SIZES, SLICE_WRITABLE, seed);
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
    void connect() {
        SplittableRandom random = new SplittableRandom(seed ^ 0xC0FFEE);
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

    /** Runs every kind of operation in both directions and returns what the peer sent to the target. */
    List<byte[]> capture() {
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

    /**
     * Starts a fresh connection on the same RC and UC queue pairs (both ends reset, new PSNs),
     * posts receives, and has the target send requests of every kind so that responses aimed
     * at it meet outstanding work.
     */
    void startCycle(SplittableRandom random) {
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

    /** Runs both engines until neither has work, so every packet in flight has been taken. */
    void settle() {
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

    /** A new RC pair between the same two devices exchanges and checks data. */
    QueuePair[] freshRcExchangeCompletes() {
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

    void post(QueuePair qp, SendWorkRequest wr) {
        qp.postSend(wr.signaled(true));
    }

    /** A new request for each post on the control path, so no field of an earlier one carries over. */
    static SendWorkRequest wr() {
        return new SendWorkRequest();
    }

    /** One step of both engines; an idle step moves the clock half a millisecond. */
    void step() {
        int work = target.engine().doWork(nowNs) + peer.engine().doWork(nowNs);
        nowNs += work == 0 ? 500_000 : 1_000;
    }

    private void awaitTrue(BooleanSupplier condition, String what) {
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
    int pollAll(boolean successOnly) {
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
    void topUpReceives() {
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

    static Counters counters(QueuePair qp) {
        QpEngine engine = ((SoftQp) qp).engine;
        return engine.counters();
    }

    static String nonZero(Counters c) {
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

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {rc, uc, ud, peerRc, peerUc, peerUd, toTarget}) {
            closeQuietly(c);
        }
        targetRegions.forEach(FuzzRig::closeQuietly);
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

    /** Builds a packet from the peer's address (another port) to the target, with a correct ICRC; returns it as hex. */
    String inject(int opcode, int destQp, int psn, Consumer<PacketBuilder> headers, int payload) {
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
}
