package dev.verbs4j.conformance.base;

import dev.verbs4j.ReceiveWorkRequest;
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
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scatter/gather lists: a send gathers its entries in order, a receive and a read fill
 * theirs in order, each entry exactly to its length, with entry boundaries that do not
 * line up with packet boundaries.
 */
@ConformanceSuite
class ScatterGatherTest {
    private static final int ENTRIES = 3;
    /** Entry lengths that split packets unevenly. */
    private static final int[] LENGTHS = {1000, 3, 3500};
    private static final int TOTAL = 4503;

    @Test
    void sendGathersEntriesInOrder(Testbed bed) {
        Require.scatterGatherEntries(bed, ENTRIES);
        RcPair pair = bed.rcPair(new RcSpec().scatterGatherEntries(ENTRIES));
        Buffer source = pair.local().buffer(3 * 4096);
        Buffer sink = pair.remote().buffer(8192);
        Bytes.fill(source.memory(), 51);
        pair.remote().postRecv(101, sink, 0, 8192);

        SendWorkRequest wr = new SendWorkRequest(ENTRIES).wrId(71).signaled(true).send();
        wr.sges().clear();
        for (int i = 0; i < ENTRIES; i++) {
            wr.sges().add(source.region(), i * 4096L + 7, LENGTHS[i]);
        }
        pair.local().qp().postSend(wr);

        Expect.success(WcOpcode.SEND, 71, Completions.next(pair.local().sendCq(), "the gathered send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 101, Completions.next(pair.remote().recvCq(), "the receive"), "receive");
        assertEquals(TOTAL, recv.byteLength(), "byte_len is the sum of the gather entries");
        long at = 0;
        for (int i = 0; i < ENTRIES; i++) {
            Bytes.assertSame(source.slice(i * 4096L + 7, LENGTHS[i]), sink.slice(at, LENGTHS[i]), "gather entry " + i);
            at += LENGTHS[i];
        }
    }

    @Test
    void receiveScattersAcrossEntries(Testbed bed) {
        Require.scatterGatherEntries(bed, ENTRIES);
        RcPair pair = bed.rcPair(new RcSpec().scatterGatherEntries(ENTRIES));
        Buffer source = pair.local().buffer(TOTAL);
        Buffer sink = pair.remote().buffer(3 * 4096);
        Bytes.fill(source.memory(), 52);
        ReceiveWorkRequest recvWr = new ReceiveWorkRequest(ENTRIES).wrId(102);
        for (int i = 0; i < ENTRIES; i++) {
            recvWr.sges().add(sink.region(), i * 4096L + 9, LENGTHS[i]);
        }
        pair.remote().qp().postRecv(recvWr);

        pair.local().qp().postSend(new SendWorkRequest().wrId(72).signaled(true).buffer(source.region(), 0, TOTAL).send());

        Expect.success(WcOpcode.SEND, 72, Completions.next(pair.local().sendCq(), "the send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 102, Completions.next(pair.remote().recvCq(), "the scattered receive"),
                "receive");
        assertEquals(TOTAL, recv.byteLength(), "byte_len of the receive");
        assertScattered(source.memory(), sink, 9);
    }

    @Test
    void readScattersIntoEntries(Testbed bed) {
        Require.scatterGatherEntries(bed, ENTRIES);
        RcPair pair = bed.rcPair(new RcSpec().scatterGatherEntries(ENTRIES));
        Buffer source = pair.remote().buffer(TOTAL);
        Buffer sink = pair.local().buffer(3 * 4096);
        Bytes.fill(source.memory(), 53);
        SendWorkRequest wr = new SendWorkRequest(ENTRIES).wrId(73).signaled(true).rdmaRead(source.remoteAddress(0), source.rkey());
        wr.sges().clear();
        for (int i = 0; i < ENTRIES; i++) {
            wr.sges().add(sink.region(), i * 4096L + 11, LENGTHS[i]);
        }

        pair.local().qp().postSend(wr);

        WorkCompletion wc = Expect.success(WcOpcode.RDMA_READ, 73, Completions.next(pair.local().sendCq(), "the scattered read"), "read");
        assertEquals(TOTAL, wc.byteLength(), "byte_len of the read");
        assertScattered(source.memory(), sink, 11);
    }

    /** Entry {@code i} sits at {@code i * 4096 + skew} and holds the next {@code LENGTHS[i]} bytes of {@code message}. */
    private static void assertScattered(MemorySegment message, Buffer sink, int skew) {
        long at = 0;
        for (int i = 0; i < ENTRIES; i++) {
            Bytes.assertSame(message.asSlice(at, LENGTHS[i]), sink.slice(i * 4096L + skew, LENGTHS[i]), "scatter entry " + i);
            Bytes.assertFilled(sink.slice(i * 4096L + skew + LENGTHS[i], 1), (byte) 0, "the byte after scatter entry " + i);
            at += LENGTHS[i];
        }
    }
}
