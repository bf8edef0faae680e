package dev.verbs4j.conformance.base;

import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** RDMA READ copies remote bytes into the local scatter list, in one response packet or several. */
@ConformanceSuite
class RdmaReadTest {

    @Test
    void readWithinOnePacketCopiesRemoteBytes(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.remote().buffer(4096);
        Buffer sink = pair.local().buffer(4096);
        Bytes.fill(source.memory(), 41);

        pair.local().qp().postSend(new SendWorkRequest().wrId(63).signaled(true).buffer(sink.region(), 8, 500)
                .rdmaRead(source.remoteAddress(1000), source.rkey()));

        WorkCompletion wc = Expect.success(WcOpcode.RDMA_READ, 63, Completions.next(pair.local().sendCq(), "the read"), "read completion");
        assertEquals(500, wc.byteLength(), "byte_len of the read");
        Bytes.assertSame(source.slice(1000, 500), sink.slice(8, 500), "read bytes");
        Bytes.assertFilled(sink.slice(0, 8), (byte) 0, "bytes before the scatter entry");
        Bytes.assertFilled(sink.slice(508, 4096 - 508), (byte) 0, "bytes after the scatter entry");
    }

    @Test
    void readLargerThanMtuArrivesInOrder(Testbed bed) {
        RcPair pair = bed.rcPair();
        int length = 4 * pair.mtu().bytes() + 99;
        Buffer source = pair.remote().buffer(length);
        Buffer sink = pair.local().buffer(length);
        Bytes.fill(source.memory(), 42);

        pair.local().qp().postSend(new SendWorkRequest().wrId(64).signaled(true).buffer(sink.region(), 0, length)
                .rdmaRead(source.remoteAddress(0), source.rkey()));

        WorkCompletion wc = Expect.success(WcOpcode.RDMA_READ, 64, Completions.next(pair.local().sendCq(), "the multi-packet read"),
                "read completion");
        assertEquals(length, wc.byteLength(), "byte_len of the read");
        Bytes.assertSame(source.memory(), sink.memory(), "read bytes");
    }

    @Test
    void zeroLengthReadCompletes(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.remote().buffer(64);
        Buffer sink = pair.local().buffer(64);
        Bytes.fill(source.memory(), 43);
        SendWorkRequest wr = new SendWorkRequest().wrId(65).signaled(true).rdmaRead(source.remoteAddress(0), source.rkey());
        wr.sges().clear();

        pair.local().qp().postSend(wr);

        WorkCompletion wc = Expect.success(WcOpcode.RDMA_READ, 65, Completions.next(pair.local().sendCq(), "the zero-length read"),
                "read completion");
        assertEquals(0, wc.byteLength(), "byte_len of a zero-length read");
        Bytes.assertFilled(sink.memory(), (byte) 0, "local memory after a zero-length read");
    }
}
