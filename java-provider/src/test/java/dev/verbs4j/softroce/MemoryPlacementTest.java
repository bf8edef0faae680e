package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.QpState;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.softroce.wire.Aeth;
import dev.verbs4j.softroce.wire.Feth;
import dev.verbs4j.softroce.wire.Icrc;
import dev.verbs4j.softroce.wire.Opcodes;
import dev.verbs4j.softroce.wire.PacketBuilder;
import dev.verbs4j.softroce.wire.UdpFlow;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RDMA FLUSH and ATOMIC WRITE (IBTA 1.5 memory placement extensions) in the soft engine. */
class MemoryPlacementTest {
    private final WatchingLink[] links = new WatchingLink[2];
    private int linkCount;
    private final SimulatedPair sim = new SimulatedPair(11, l -> links[linkCount++] = new WatchingLink(l));

    private WorkCompletion poll(RcPair.Side side, int steps) {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertTrue(sim.runUntil(() -> side.cq.poll(wc) == 1, steps), "no completion");
        return wc[0];
    }

    /** A request crafted byte by byte, sent to B's QP from A's address with the PSN B expects next. */
    private void inject(RcPair p, int opcode, int placement, int selectivity, long va, int rkey, int dmaLength, int payload) throws Exception {
        MemorySegment packet = Arena.ofAuto().allocate(256);
        PacketBuilder b = new PacketBuilder().start(packet, 0, opcode);
        b.bth().init(opcode, false, false, 0, 0xFFFF, p.b.qp.qpn(), true, 0xfffff0);
        if (opcode == Opcodes.RC_FLUSH) {
            b.feth().init(placement, selectivity);
        }
        b.reth().init(va, rkey, dmaLength);
        UdpFlow flow = new UdpFlow().set(InetAddress.getByName("10.77.0.1"), 4791, InetAddress.getByName("10.77.0.2"), 4791);
        int length = b.finish(payload, new Icrc(), flow, 0);
        links[0].inject(packet, length, new InetSocketAddress(InetAddress.getByName("10.77.0.2"), 4791));
    }

    @Test
    void atomicWriteWithAZeroLengthPayloadIsAnInvalidRequestAndTouchesNothing() throws Exception {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            p.b.buf.set(ValueLayout.JAVA_LONG, 64, 0x1111);
            long before = p.b.buf.get(ValueLayout.JAVA_LONG, 72);
            inject(p, Opcodes.RC_ATOMIC_WRITE, 0, 0, p.b.mr.address() + 64, p.b.mr.rkey(), 0, 0);
            sim.runUntil(() -> false, 20);
            assertEquals(java.util.List.of(Aeth.NAK_INVALID_REQUEST), links[1].syndromes());
            assertEquals(0x1111, p.b.buf.get(ValueLayout.JAVA_LONG, 64));
            assertEquals(before, p.b.buf.get(ValueLayout.JAVA_LONG, 72), "nothing read or written past the payload");
            assertEquals(QpState.ERR, p.b.qp.state());
        }
    }

    @Test
    void atomicWriteAnnouncingEightButCarryingFourIsAnInvalidRequest() throws Exception {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            inject(p, Opcodes.RC_ATOMIC_WRITE, 0, 0, p.b.mr.address() + 64, p.b.mr.rkey(), 8, 4);
            sim.runUntil(() -> false, 20);
            assertEquals(java.util.List.of(Aeth.NAK_INVALID_REQUEST), links[1].syndromes());
        }
    }

    @Test
    void flushWithAReservedSelectivityIsAnInvalidRequest() throws Exception {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            inject(p, Opcodes.RC_FLUSH, Feth.PLACEMENT_GLOBAL, 2, p.b.mr.address(), p.b.mr.rkey(), 64, 0);
            sim.runUntil(() -> false, 20);
            assertEquals(java.util.List.of(Aeth.NAK_INVALID_REQUEST), links[1].syndromes());
        }
    }

    @Test
    void aDuplicatedAtomicWriteIsReplayedSoALaterWriteIsNotUndone() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            // Lose the answer to the ATOMIC WRITE; the WRITE after it to the same place executes;
            // then the requester times out and resends both. Replaying (not re-executing) the
            // duplicate ATOMIC WRITE keeps the WRITE's value.
            int[] answers = {0};
            links[1].drop = v -> v.opcode() == Opcodes.RC_RDMA_READ_RESPONSE_ONLY && ++answers[0] == 1;
            p.a.buf.set(ValueLayout.JAVA_LONG, 0, 2);
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).atomicWrite(p.b.mr.address() + 128, p.b.mr.rkey(), 1));
            p.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(p.a.mr, 0, 8)
                    .rdmaWrite(p.b.mr.address() + 128, p.b.mr.rkey()));
            WorkCompletion first = poll(p.a, 100_000);
            assertEquals(WcOpcode.ATOMIC_WRITE, first.opcode());
            assertEquals(WcStatus.SUCCESS, first.status());
            assertEquals(WcStatus.SUCCESS, poll(p.a, 100_000).status());
            assertEquals(2, links[0].count(Opcodes.RC_ATOMIC_WRITE), "the ATOMIC WRITE was sent twice");
            assertEquals(2, p.b.buf.get(ValueLayout.JAVA_LONG, 128), "the later WRITE's value stands");
        }
    }

    @Test
    void aDuplicatedFlushIsAnsweredAgain() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            int[] answers = {0};
            links[1].drop = v -> v.opcode() == Opcodes.RC_RDMA_READ_RESPONSE_ONLY && ++answers[0] == 1;
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).flush(p.b.mr.address(), p.b.mr.rkey(), 4096,
                    FlushType.GLOBAL, FlushLevel.RANGE));
            WorkCompletion wc = poll(p.a, 100_000);
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(WcOpcode.FLUSH, wc.opcode());
            assertEquals(2, links[1].count(Opcodes.RC_RDMA_READ_RESPONSE_ONLY), "answered twice");
        }
    }

    @Test
    void flushPersistentOnAnonymousMemoryIsRefusedAtRegistration() {
        try (RcPair p = sim.connect(1 << 16, 8, 10); Arena arena = Arena.ofConfined()) {
            VerbsException e = assertThrows(VerbsException.class, () -> p.a.pd.registerMemory(arena.allocate(4096),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.FLUSH_PERSISTENT)));
            assertEquals(Errno.EINVAL, e.error());
        }
    }

    @Test
    void flushToAPlacementTheQpDoesNotAllowIsARemoteAccessError() {
        try (RcPair p = sim.connect(1 << 16, 8, 10)) {
            p.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).flush(p.b.mr.address(), p.b.mr.rkey(), 64,
                    FlushType.PERSISTENT, FlushLevel.RANGE));
            assertEquals(WcStatus.REM_ACCESS_ERR, poll(p.a, 10_000).status());
        }
    }
}
