package dev.verbs4j.conformance.misuse;

import dev.verbs4j.Errno;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Inline data is copied at post time from the addresses in the gather list. libibverbs reads
 * whatever address an entry holds, so a wrong one faults the process; the API reads only
 * through a segment or a registered region, and refuses every other entry with
 * {@code EINVAL} before a byte is read. After the refusal nothing was sent and the queue
 * pair still works: the next inline send is the one the peer receives.
 */
@ConformanceSuite
class InlineAddressTest {
    private static final int INLINE = 64;
    /** In the first page, which no process maps. */
    private static final long UNMAPPED = 0x40;

    @Test
    void inlineSendFromAnUnmappedAddressIsRefused(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().inlineBytes(INLINE));
        SendWorkRequest wr = new SendWorkRequest().wrId(1).signaled(true).inline(true).send();
        wr.sges().clear().add(UNMAPPED, 32, 0);
        Expect.errno(Errno.EINVAL, () -> pair.local().qp().postSend(wr), "an inline send from an unmapped address");
        theQueuePairStillSends(bed, pair);
    }

    @Test
    void inlineSendFromAClosedArenaIsRefused(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().inlineBytes(INLINE));
        SendWorkRequest wr = new SendWorkRequest().wrId(2).signaled(true).inline(true).send();
        Arena arena = Arena.ofShared();
        wr.sges().clear().add(Bytes.fill(arena.allocate(32), 3), 0, 32);
        arena.close();
        Expect.errno(Errno.EINVAL, () -> pair.local().qp().postSend(wr), "an inline send from a closed arena's segment");
        theQueuePairStillSends(bed, pair);
    }

    @Test
    void inlineSendPastItsRegionsEndIsRefused(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().inlineBytes(INLINE));
        Buffer source = pair.local().buffer(INLINE);
        SendWorkRequest wr = new SendWorkRequest().wrId(3).signaled(true).inline(true).send();
        wr.sges().clear().add(source.region().localAddress() + source.region().length() - 16, 32, source.region().lkey());
        Expect.errno(Errno.EINVAL, () -> pair.local().qp().postSend(wr), "an inline send reaching past its region's end");
        theQueuePairStillSends(bed, pair);
    }

    @Test
    void inlineSendWithAMadeUpLkeyIsRefused(Testbed bed) {
        RcPair pair = bed.rcPair(new RcSpec().inlineBytes(INLINE));
        Buffer source = pair.local().buffer(INLINE);
        SendWorkRequest wr = new SendWorkRequest().wrId(4).signaled(true).inline(true).send();
        wr.sges().clear().add(source.region().localAddress(), 32, source.region().lkey() ^ 0x5a5a00);
        Expect.errno(Errno.EINVAL, () -> pair.local().qp().postSend(wr), "an inline send naming no region");
        theQueuePairStillSends(bed, pair);
    }

    private static void theQueuePairStillSends(Testbed bed, RcPair pair) {
        MemorySegment data = Bytes.fill(bed.memory(INLINE), 41);
        Buffer sink = pair.remote().buffer(INLINE);
        pair.remote().postRecv(90, sink, 0, INLINE);
        SendWorkRequest wr = new SendWorkRequest().wrId(9).signaled(true).inline(true).send();
        wr.sges().clear().add(data, 0, INLINE);
        pair.local().qp().postSend(wr);
        Expect.success(WcOpcode.SEND, 9, Completions.next(pair.local().sendCq(), "the inline send after the refusal"),
                "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 90, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion: the refused request sent nothing");
        assertEquals(INLINE, recv.byteLength(), "byte_len of the receive");
        Bytes.assertSame(data, sink.memory(), "the bytes of the send after the refusal");
    }
}
