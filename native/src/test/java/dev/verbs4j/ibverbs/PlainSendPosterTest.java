package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.Access;
import dev.verbs4j.AtomicCapability;
import dev.verbs4j.Errno;
import dev.verbs4j.MwType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.ibverbs.binding.FakeVerbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where a provider has no extended queue pairs, work requests become the {@code ibv_send_wr}
 * a C program hands to {@code ibv_post_send}, observed through the fake provider's
 * {@code post_send}: the opcode, its operands in the unions it reads, the data.
 */
class PlainSendPosterTest {
    private static final long PLAIN_OPERATIONS = QpFactory.sendOpsFlags(
            EnumSet.complementOf(EnumSet.of(WrOpcode.REG_MR, WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE)), true);
    private static final int RKEY = 0xfedcba98;
    private static final long REMOTE = 0x8000_7f00_0000_1000L;

    private final FakeDevice fake = new FakeDevice();
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void release() {
        arena.close();
        fake.close();
    }

    private SendPoster poster(boolean datagram) {
        return new SendPoster(null, FakeVerbs.qpOf(fake.device), PLAIN_OPERATIONS, datagram, 4, 64, null, null);
    }

    private static List<String> post(SendPoster poster, SendWorkRequest... wrs) {
        FakeVerbs.startCallLog();
        String log;
        try {
            if (wrs.length == 1) {
                poster.post(wrs[0]);
            } else {
                poster.postList(wrs, wrs.length);
            }
        } finally {
            log = FakeVerbs.takeCallLog();
        }
        return log.isEmpty() ? List.of() : List.of(log.split("\n"));
    }

    private static SendWorkRequest request(long wrId) {
        return new SendWorkRequest(4).wrId(wrId).signaled(true);
    }

    @Test
    void sendsCarryTheirDataAndImmediateInNetworkOrder() {
        SendWorkRequest send = request(1).fence(true).send();
        send.sges().add(0x1000, 256, 0x1111).add(0x2000, 8, 0x2222);
        SendWorkRequest imm = request(2).sendWithImm(0x11223344);
        imm.sges().add(0x1000, 8, 1);
        List<String> calls = post(poster(false), send, imm);
        assertEquals(List.of(
                "post_send wr_id=1 flags=3 opcode=2 ah=null qpn=0 qkey=0 sge=1111/1000/100 sge=2222/2000/8",
                "post_send wr_id=2 flags=2 opcode=3 imm=" + Integer.toHexString(NetworkOrder.toNetwork32(0x11223344))
                        + " ah=null qpn=0 qkey=0 sge=1/1000/8"), calls);
    }

    @Test
    void rdmaAndAtomicOperandsGoInTheirUnions() {
        SendWorkRequest write = request(3).rdmaWrite(REMOTE, RKEY);
        write.sges().add(0x2000, 64, 0x1111);
        SendWorkRequest read = request(4).rdmaRead(REMOTE, RKEY);
        read.sges().add(0x3000, 64, 0x1111);
        SendWorkRequest cas = request(5).compareAndSwap(REMOTE, RKEY, -2L, Long.MIN_VALUE);
        cas.sges().add(0x4000, 8, 0x1111);
        SendWorkRequest faa = request(6).fetchAndAdd(REMOTE, RKEY, 1);
        faa.sges().add(0x4000, 8, 0x1111);
        assertEquals(List.of(
                "post_send wr_id=3 flags=2 opcode=0 rkey=fedcba98 addr=80007f0000001000 sge=1111/2000/40",
                "post_send wr_id=4 flags=2 opcode=4 rkey=fedcba98 addr=80007f0000001000 sge=1111/3000/40",
                "post_send wr_id=5 flags=2 opcode=5 rkey=fedcba98 addr=80007f0000001000 compare_add=fffffffffffffffe"
                        + " swap=8000000000000000 sge=1111/4000/8",
                "post_send wr_id=6 flags=2 opcode=6 rkey=fedcba98 addr=80007f0000001000 compare_add=1 swap=0"
                        + " sge=1111/4000/8"), post(poster(false), write, read, cas, faa));
    }

    @Test
    void invalidationsAndBindsNameTheirKeys() {
        SendWorkRequest inv = request(7).sendWithInv(RKEY);
        inv.sges().add(0x1000, 8, 1);
        IbverbsMw window = fake.window(MwType.TYPE_2);
        SendWorkRequest bind = request(8).bindMw(window, 0x5501, fake.mr, 0x7000, 0x100,
                Access.toMask(EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE)));
        assertEquals(List.of(
                "post_send wr_id=7 flags=2 opcode=9 invalidate=fedcba98 rkey=fedcba98 sge=1/1000/8",
                "post_send wr_id=8 flags=2 opcode=8 mw=set rkey=5501 mr=set addr=7000 length=100 access=6",
                "post_send wr_id=9 flags=2 opcode=7 invalidate=5501"),
                post(poster(false), inv, bind, request(9).localInvalidate(0x5501)));
        assertEquals(0x5501, window.rkey(), "the window answers to the key just posted");
    }

    @Test
    void inlineDataIsStagedAndReadDuringThePost() {
        MemorySegment first = arena.allocateFrom("inline ", StandardCharsets.US_ASCII);
        MemorySegment second = arena.allocateFrom("data", StandardCharsets.US_ASCII);
        SendWorkRequest wr = request(10).inline(true).send();
        wr.sges().add(first, 0, 7).add(second, 0, 4);
        assertEquals(List.of("post_send wr_id=a flags=a opcode=2 ah=null qpn=0 qkey=0 text=inline data"),
                post(poster(false), wr));
    }

    @Test
    void datagramSendsNameTheAddressHandleQpnAndQkey() {
        SendWorkRequest wr = request(11).send().ud(fake.addressHandle(), 0xabcdef, 0x80010000);
        wr.sges().add(0x1000, 32, 1);
        assertEquals(List.of("post_send wr_id=b flags=2 opcode=2 ah=set qpn=abcdef qkey=80010000 sge=1/1000/20"),
                post(poster(true), wr));
    }

    @Test
    void aRefusedPostEndsTheListAfterTheOnesBeforeIt() {
        SendWorkRequest first = request(12).send();
        SendWorkRequest second = request(13).send();
        SendPoster poster = poster(false);
        poster.post(first);
        FakeVerbs.setNextResult(Errno.ENOMEM.number());
        VerbsException e = assertThrows(VerbsException.class, () -> poster.postList(new SendWorkRequest[] {second}, 1));
        assertEquals(Errno.ENOMEM, e.error());
        assertTrue(e.getMessage().contains("ibv_post_send (SEND)"), e.getMessage());
    }

    @Test
    void operationsOnlyTheExtendedApiCarriesAreRefusedBeforeThePost() {
        SendPoster poster = poster(false);
        FakeVerbs.startCallLog();
        for (SendWorkRequest wr : List.of(request(14).atomicWrite(REMOTE, RKEY, 1), request(15).flush(REMOTE, RKEY, 8,
                dev.verbs4j.FlushType.GLOBAL, dev.verbs4j.FlushLevel.RANGE))) {
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> poster.post(wr)).error());
        }
        assertEquals("", FakeVerbs.takeCallLog());
        assertEquals(Errno.EOPNOTSUPP, assertThrows(VerbsException.class,
                () -> SendPoster.plainOpcode(WrOpcode.FLUSH)).error());
    }

    @Test
    void withoutExtendedQueuePairsTheDevicesReportDecidesWhatIsRefused() {
        for (WrOpcode op : List.of(WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE, WrOpcode.ATOMIC_CMP_AND_SWP,
                WrOpcode.ATOMIC_FETCH_AND_ADD, WrOpcode.BIND_MW)) {
            VerbsException e = assertThrows(VerbsException.class,
                    () -> QpFactory.refuseWithoutExtendedApi(Set.of(op), AtomicCapability.NONE, 0, "create"), op.name());
            assertEquals(Errno.EOPNOTSUPP, e.error(), op.name());
        }
        QpFactory.refuseWithoutExtendedApi(EnumSet.of(WrOpcode.SEND, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ,
                WrOpcode.LOCAL_INV, WrOpcode.SEND_WITH_INV), AtomicCapability.NONE, 0, "create");
        QpFactory.refuseWithoutExtendedApi(EnumSet.of(WrOpcode.ATOMIC_CMP_AND_SWP, WrOpcode.BIND_MW), AtomicCapability.HCA, 16, "create");
        assertEquals(Errno.EOPNOTSUPP, assertThrows(VerbsException.class, () -> QpFactory.refuseWithoutExtendedApi(
                Set.of(WrOpcode.FLUSH), AtomicCapability.HCA, 16, "create")).error(), "FLUSH has no ibv_send_wr form on any device");
    }
}
