package dev.verbs4j.conformance.base;

import dev.verbs4j.Access;
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
import dev.verbs4j.conformance.fixture.Testbed;
import dev.verbs4j.conformance.fixture.UdPair;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * RELAXED_ORDERING is an optional access flag ({@code IBV_ACCESS_OPTIONAL_FIRST}): a device
 * may use it or ignore it, but a region registered with it works as any other, for sends,
 * datagrams and RDMA WRITE alike.
 */
@ConformanceSuite
class RelaxedOrderingTest {
    private static final Set<Access> LOCAL = EnumSet.of(Access.LOCAL_WRITE, Access.RELAXED_ORDERING);
    private static final Set<Access> REMOTE_WRITE = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.RELAXED_ORDERING);

    @Test
    void sendBetweenRelaxedOrderingRegionsArrives(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = bed.buffer(pair.local().pd(), 1024, LOCAL);
        Buffer sink = bed.buffer(pair.remote().pd(), 1024, LOCAL);
        Bytes.fill(source.memory(), 71);
        pair.remote().postRecv(171, sink, 0, 1024);

        pair.local().qp().postSend(new SendWorkRequest().wrId(71).signaled(true).buffer(source.region(), 0, 1024).send());

        Expect.success(WcOpcode.SEND, 71, Completions.next(pair.local().sendCq(), "the send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 171, Completions.next(pair.remote().recvCq(), "the receive"), "receive");
        assertEquals(1024, recv.byteLength(), "byte_len");
        Bytes.assertSame(source.memory(), sink.memory(), "message");
    }

    @Test
    void datagramIntoRelaxedOrderingRegionArrives(Testbed bed) {
        UdPair pair = bed.udPair();
        Buffer source = bed.buffer(pair.local().pd(), 256, LOCAL);
        Buffer sink = bed.buffer(pair.remote().pd(), UdPair.GRH_BYTES + 256, LOCAL);
        Bytes.fill(source.memory(), 72);
        pair.remote().qp().postRecv(new ReceiveWorkRequest().wrId(172).buffer(sink.region(), 0, (int) sink.length()));

        pair.local().qp().postSend(new SendWorkRequest().wrId(72).signaled(true).buffer(source.region(), 0, 256).send()
                .ud(pair.local().toPeer(), pair.remote().qp().qpn(), pair.qkey()));

        Expect.success(WcOpcode.SEND, 72, Completions.next(pair.local().sendCq(), "the UD send"), "send completion");
        Expect.success(WcOpcode.RECV, 172, Completions.next(pair.remote().recvCq(), "the UD receive"), "receive");
        Bytes.assertSame(source.memory(), sink.slice(UdPair.GRH_BYTES, 256), "payload after the GRH");
    }

    @Test
    void writeIntoRelaxedOrderingRegionLands(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = bed.buffer(pair.local().pd(), 4096, LOCAL);
        Buffer target = bed.buffer(pair.remote().pd(), 4096, REMOTE_WRITE);
        Bytes.fill(source.memory(), 73);

        pair.local().qp().postSend(new SendWorkRequest().wrId(73).signaled(true).buffer(source.region(), 0, 4096)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.success(WcOpcode.RDMA_WRITE, 73, Completions.next(pair.local().sendCq(), "the write"), "write completion");
        Bytes.assertSame(source.memory(), target.memory(), "written bytes");
    }
}
