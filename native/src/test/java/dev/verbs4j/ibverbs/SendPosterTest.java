package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.MwType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Work requests become the {@code ibv_wr_*} calls a C program makes, observed through the
 * binding's recording {@code ibv_qp_ex}: one batch per request, the operation with its
 * operands, the data, the UD address, then {@code ibv_wr_complete}.
 */
class SendPosterTest {
    private static final long ALL_OPERATIONS = QpFactory.sendOpsFlags(EnumSet.complementOf(EnumSet.of(WrOpcode.REG_MR)), true);
    private static final int RKEY = 0xfedcba98;
    private static final long REMOTE = 0x8000_7f00_0000_1000L;

    private final FakeDevice fake = new FakeDevice();
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void release() {
        arena.close();
        fake.close();
    }

    private SendPoster poster(long sendOpsFlags, boolean datagram) {
        return new SendPoster(fake.qpEx(), sendOpsFlags, datagram, 4, 64);
    }

    /** The calls of one post after {@code ibv_wr_start}, whose record still shows the previous request. */
    private static List<String> post(SendPoster poster, SendWorkRequest wr) {
        FakeVerbs.startCallLog();
        String log;
        try {
            poster.post(wr);
        } finally {
            log = FakeVerbs.takeCallLog();
        }
        List<String> calls = List.of(log.split("\n"));
        assertTrue(calls.getFirst().startsWith("start "), "a batch opens first: " + calls);
        return calls.subList(1, calls.size());
    }

    private static SendWorkRequest request(long wrId) {
        return new SendWorkRequest(4).wrId(wrId).signaled(true);
    }

    @Test
    void sendPassesIdFlagsAndOneGatherEntry() {
        SendWorkRequest wr = request(7).fence(true);
        wr.sges().add(0x1000, 256, 0x1111);
        assertEquals(List.of(
                "send wr_id=7 flags=3",
                "set_sge wr_id=7 flags=3 lkey=1111 addr=1000 length=100",
                "complete wr_id=7 flags=3"), post(poster(ALL_OPERATIONS, false), wr.send()));
    }

    @Test
    void immediateDataIsPassedInNetworkByteOrder() {
        SendWorkRequest wr = request(1).sendWithImm(0x11223344);
        wr.sges().add(0x1000, 8, 1);
        assertEquals("send_imm wr_id=1 flags=2 imm=" + Integer.toHexString(NetworkOrder.toNetwork32(0x11223344)),
                post(poster(ALL_OPERATIONS, false), wr).getFirst());
        SendWorkRequest write = request(2).rdmaWriteWithImm(REMOTE, RKEY, 0x11223344);
        write.sges().add(0x1000, 8, 1);
        assertEquals("rdma_write_imm wr_id=2 flags=2 rkey=fedcba98 addr=80007f0000001000 imm="
                + Integer.toHexString(NetworkOrder.toNetwork32(0x11223344)), post(poster(ALL_OPERATIONS, false), write).getFirst());
    }

    @Test
    void sendWithInvalidateAndLocalInvalidatePassTheKey() {
        SendWorkRequest inv = request(3).sendWithInv(RKEY);
        inv.sges().add(0x1000, 8, 1);
        assertEquals("send_inv wr_id=3 flags=2 rkey=fedcba98", post(poster(ALL_OPERATIONS, false), inv).getFirst());
        assertEquals(List.of("local_inv wr_id=4 flags=2 rkey=fedcba98", "complete wr_id=4 flags=2"),
                post(poster(ALL_OPERATIONS, false), request(4).localInvalidate(RKEY)), "no data follows a LOCAL_INV");
    }

    @Test
    void rdmaWriteAndReadPassKeyAndRemoteAddress() {
        SendWorkRequest write = request(5).rdmaWrite(REMOTE, RKEY);
        write.sges().add(0x2000, 64, 0x1111);
        assertEquals(List.of(
                "rdma_write wr_id=5 flags=2 rkey=fedcba98 addr=80007f0000001000",
                "set_sge wr_id=5 flags=2 lkey=1111 addr=2000 length=40",
                "complete wr_id=5 flags=2"), post(poster(ALL_OPERATIONS, false), write));
        SendWorkRequest read = request(6).rdmaRead(REMOTE, RKEY);
        read.sges().add(0x3000, 64, 0x1111);
        assertEquals("rdma_read wr_id=6 flags=2 rkey=fedcba98 addr=80007f0000001000",
                post(poster(ALL_OPERATIONS, false), read).getFirst());
    }

    @Test
    void atomicsPassTheirOperandsAndResultEntry() {
        SendWorkRequest cas = request(8).compareAndSwap(REMOTE, RKEY, -2L, Long.MIN_VALUE);
        cas.sges().add(0x4000, 8, 0x1111);
        assertEquals(List.of(
                "cmp_swp wr_id=8 flags=2 rkey=fedcba98 addr=80007f0000001000 compare=fffffffffffffffe swap=8000000000000000",
                "set_sge wr_id=8 flags=2 lkey=1111 addr=4000 length=8",
                "complete wr_id=8 flags=2"), post(poster(ALL_OPERATIONS, false), cas));
        SendWorkRequest faa = request(9).fetchAndAdd(REMOTE, RKEY, 1);
        faa.sges().add(0x4000, 8, 0x1111);
        assertEquals("fetch_add wr_id=9 flags=2 rkey=fedcba98 addr=80007f0000001000 add=1",
                post(poster(ALL_OPERATIONS, false), faa).getFirst());
    }

    @Test
    void atomicWritePassesTheValueInNativeByteOrderAndNoData() {
        assertEquals(List.of(
                "atomic_write wr_id=a flags=2 rkey=fedcba98 addr=80007f0000001000 value=123456789abcdef",
                "complete wr_id=a flags=2"),
                post(poster(ALL_OPERATIONS, false), request(10).atomicWrite(REMOTE, RKEY, 0x0123_4567_89ab_cdefL)));
    }

    @Test
    void flushPassesLengthPlacementTypeAndSelectivityLevel() {
        SendWorkRequest wr = request(11).flush(REMOTE, RKEY, 0x1_0000_0000L,
                FlushType.toMask(EnumSet.of(FlushType.GLOBAL, FlushType.PERSISTENT)), FlushLevel.MR);
        assertEquals(List.of(
                "flush wr_id=b flags=2 rkey=fedcba98 addr=80007f0000001000 len=100000000 type=3 level=1",
                "complete wr_id=b flags=2"), post(poster(ALL_OPERATIONS, false), wr));
    }

    @Test
    void bindMwPassesWindowNewKeyAndBindInfo() {
        IbverbsMw window = fake.window(MwType.TYPE_2);
        SendWorkRequest wr = request(12).bindMw(window, 0x5501, fake.mr, 0x7000, 0x100,
                Access.toMask(EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE)));
        assertEquals(List.of(
                "bind_mw wr_id=c flags=2 mw=set rkey=5501 addr=7000 length=100 access=6",
                "complete wr_id=c flags=2"), post(poster(ALL_OPERATIONS, false), wr));
        assertEquals(0x5501, window.rkey(), "the window answers to the key just posted");
        assertEquals(fake.mr, window.boundRegion());
    }

    @Test
    void datagramSendsNameTheAddressHandleQpnAndQkey() {
        SendWorkRequest wr = request(13).send().ud(fake.addressHandle(), 0xabcdef, 0x80010000);
        wr.sges().add(0x1000, 32, 1);
        assertEquals(List.of(
                "send wr_id=d flags=2",
                "set_sge wr_id=d flags=2 lkey=1 addr=1000 length=20",
                "set_ud_addr wr_id=d flags=2 ah=set qpn=abcdef qkey=80010000",
                "complete wr_id=d flags=2"), post(poster(ALL_OPERATIONS, true), wr));
    }

    @Test
    void severalGatherEntriesGoAsOneList() {
        SendWorkRequest wr = request(14).send();
        wr.sges().add(0x1000, 1, 1).add(0x2000, 2, 2).add(0x3000, 3, 0xfffffff3);
        assertEquals("set_sge_list wr_id=e flags=2 count=3 last_addr=3000 last_length=3 last_lkey=fffffff3",
                post(poster(ALL_OPERATIONS, false), wr).get(1));
    }

    @Test
    void inlineDataIsCopiedFromWhereItIs() {
        MemorySegment text = arena.allocateFrom("hello", StandardCharsets.US_ASCII);
        SendWorkRequest wr = request(15).inline(true).send();
        wr.sges().add(text, 0, 5);
        assertEquals("set_inline_data wr_id=f flags=a text=hello", post(poster(ALL_OPERATIONS, false), wr).get(1));
    }

    @Test
    void inlineDataFromAnAddressNoSegmentBoundsIsRefusedBeforeTheBatch() {
        SendWorkRequest unmapped = request(18).inline(true).send();
        unmapped.sges().add(0x40, 5, 0);
        Arena closing = Arena.ofConfined();
        SendWorkRequest closed = request(19).inline(true).send();
        closed.sges().add(closing.allocate(8), 0, 8);
        closing.close();
        SendPoster poster = poster(ALL_OPERATIONS, false);
        FakeVerbs.startCallLog();
        for (SendWorkRequest wr : List.of(unmapped, closed)) {
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> poster.post(wr)).error(), "request " + wr.wrId());
        }
        assertEquals("", FakeVerbs.takeCallLog(), "no wr_* call reached the provider");
    }

    @Test
    void severalInlinePiecesAreGatheredIntoOne() {
        MemorySegment first = arena.allocateFrom("inline ", StandardCharsets.US_ASCII);
        MemorySegment second = arena.allocateFrom("data", StandardCharsets.US_ASCII);
        SendWorkRequest wr = request(16).inline(true).rdmaWrite(REMOTE, RKEY);
        wr.sges().add(first, 0, 7).add(second, 0, 4);
        assertEquals("set_inline_data wr_id=10 flags=a text=inline data", post(poster(ALL_OPERATIONS, false), wr).get(1));
    }

    @Test
    void inlineFlagOnAReadIsDroppedAndTheScatterListUsed() {
        SendWorkRequest wr = request(17).inline(true).rdmaRead(REMOTE, RKEY);
        wr.sges().add(0x5000, 16, 0x1111);
        assertEquals("set_sge wr_id=11 flags=2 lkey=1111 addr=5000 length=10", post(poster(ALL_OPERATIONS, false), wr).get(1));
    }

    @Test
    void operationTheQueuePairWasNotCreatedForIsRefusedBeforeTheBatch() {
        long sendOnly = IbverbsConstants.IBV_QP_EX_WITH_SEND;
        FakeVerbs.startCallLog();
        VerbsException e = assertThrows(VerbsException.class,
                () -> poster(sendOnly, false).post(request(1).atomicWrite(REMOTE, RKEY, 1)));
        assertEquals("", FakeVerbs.takeCallLog(), "no wr_* call reached the provider");
        assertEquals(Errno.EINVAL, e.error());
    }

    @Test
    void fastRegistrationIsNotInLibibverbs() {
        SendWorkRequest wr = request(1).registerMr(fake.mr, 0x100, new long[] {0x1000}, 1, 12, 0x1000, 4096, 0);
        VerbsException e = assertThrows(VerbsException.class, () -> poster(ALL_OPERATIONS, false).post(wr));
        assertEquals(Errno.EOPNOTSUPP, e.error());
    }

    @Test
    void malformedRequestsAreRefusedWithEinval() {
        SendPoster poster = new SendPoster(fake.qpEx(), ALL_OPERATIONS, false, 2, 8);
        SendWorkRequest tooManyEntries = request(1).send();
        tooManyEntries.sges().add(1, 1, 1).add(2, 1, 1).add(3, 1, 1);
        SendWorkRequest inlineTooLong = request(2).inline(true).send();
        inlineTooLong.sges().add(0x1000, 9, 0);
        SendWorkRequest bindWithoutRegion = request(3).bindMw(fake.window(MwType.TYPE_2), 1, null, 0, 0, 0);
        FakeVerbs.startCallLog();
        for (SendWorkRequest wr : List.of(tooManyEntries, inlineTooLong, bindWithoutRegion)) {
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> poster.post(wr)).error(), wr.opcode().name());
        }
        assertEquals("", FakeVerbs.takeCallLog());
    }

    @Test
    void datagramSendWithoutAddressHandleIsRefused() {
        SendWorkRequest wr = request(1).send();
        wr.sges().add(0x1000, 8, 1);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> poster(ALL_OPERATIONS, true).post(wr)).error());
    }

    @Test
    void completeFailureCarriesTheProvidersErrnoOfEitherSign() {
        SendWorkRequest wr = request(1).send();
        wr.sges().add(0x1000, 8, 1);
        FakeVerbs.setNextResult(Errno.ENOMEM.number());
        assertEquals(Errno.ENOMEM, assertThrows(VerbsException.class, () -> poster(ALL_OPERATIONS, false).post(wr)).error());
        FakeVerbs.setNextResult(-Errno.EINVAL.number());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> poster(ALL_OPERATIONS, false).post(wr)).error());
        assertEquals("complete wr_id=1 flags=2", FakeVerbs.lastCall(), "a failed complete ends the batch; no abort follows");
    }

    @Test
    void aFullSendQueueReportsEnomemAsPostSendDoes() {
        assertEquals(Errno.ENOMEM.number(), SendPoster.completeErrno(Errno.ENOSPC.number()), "rxe's ENOSPC from ibv_wr_complete");
        assertEquals(Errno.ENOMEM.number(), SendPoster.completeErrno(-Errno.ENOSPC.number()), "as a negative result");
        assertEquals(Errno.EINVAL.number(), SendPoster.completeErrno(22), "other errors pass through");
    }
}
