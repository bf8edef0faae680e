package dev.verbs4j.conformance.odp;

import dev.verbs4j.Access;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.QpType;
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

import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * RC traffic into and out of On-Demand Paging regions, each case skipped unless both
 * devices report the On-Demand Paging capability it needs for RC. Modelled on pyverbs'
 * {@code test_odp_rc_*}.
 */
@ConformanceSuite
class OdpTrafficTest {
    private static final int LENGTH = 3 * 4096 + 100;

    @Test
    void sendReceiveBetweenOnDemandRegions(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.SEND, OdpTransportCapability.RECV);
        RcPair pair = bed.rcPair();
        Buffer source = OnDemand.buffer(bed, pair.local().pd(), LENGTH);
        Buffer sink = OnDemand.buffer(bed, pair.remote().pd(), LENGTH);
        Bytes.fill(source.memory(), 101);
        pair.remote().postRecv(901, sink, 0, LENGTH);

        pair.local().qp().postSend(new SendWorkRequest().wrId(902).signaled(true).buffer(source.region(), 0, LENGTH).send());

        Expect.success(WcOpcode.SEND, 902, Completions.next(pair.local().sendCq(), "the send"), "send from an on-demand region");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 901, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive into an on-demand region");
        assertEquals(LENGTH, recv.byteLength(), "byte_len");
        Bytes.assertSame(source.memory(), sink.memory(), "received bytes");
    }

    @Test
    void rdmaWriteIntoOnDemandRegion(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.WRITE);
        RcPair pair = bed.rcPair();
        Buffer source = OnDemand.buffer(bed, pair.local().pd(), LENGTH);
        Buffer target = OnDemand.buffer(bed, pair.remote().pd(), LENGTH);
        Bytes.fill(source.memory(), 102);

        pair.local().qp().postSend(new SendWorkRequest().wrId(903).signaled(true).buffer(source.region(), 0, LENGTH)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.success(WcOpcode.RDMA_WRITE, 903, Completions.next(pair.local().sendCq(), "the write"), "write into an on-demand region");
        Bytes.assertSame(source.memory(), target.memory(), "written bytes");
    }

    /**
     * A short write into the middle of a page: the bytes land at that offset and the rest of
     * the page keeps its contents. This isolates placement inside a page from faulting across
     * pages.
     */
    @Test
    void writeInsidePageLandsAtItsOffset(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.WRITE);
        RcPair pair = bed.rcPair();
        Buffer source = bed.buffer(pair.local().pd(), 64, Access.LOCAL_WRITE);
        Buffer target = OnDemand.buffer(bed, pair.remote().pd(), 4096);
        Bytes.fill(source.memory(), 105);
        target.memory().fill((byte) 0x5a);

        pair.local().qp().postSend(new SendWorkRequest().wrId(906).signaled(true).buffer(source.region(), 0, 64)
                .rdmaWrite(target.remoteAddress(512), target.rkey()));

        Expect.success(WcOpcode.RDMA_WRITE, 906, Completions.next(pair.local().sendCq(), "the write"), "write at page offset 512");
        Bytes.assertSame(source.memory(), target.memory().asSlice(512, 64), "bytes at page offset 512");
        Bytes.assertFilled(target.memory().asSlice(0, 512), (byte) 0x5a, "bytes before offset 512");
        Bytes.assertFilled(target.memory().asSlice(576), (byte) 0x5a, "bytes after the write");
    }

    @Test
    void rdmaReadFromOnDemandRegion(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.READ);
        RcPair pair = bed.rcPair();
        Buffer source = OnDemand.buffer(bed, pair.remote().pd(), LENGTH);
        Buffer sink = OnDemand.buffer(bed, pair.local().pd(), LENGTH);
        Bytes.fill(source.memory(), 103);

        pair.local().qp().postSend(new SendWorkRequest().wrId(904).signaled(true).buffer(sink.region(), 0, LENGTH)
                .rdmaRead(source.remoteAddress(0), source.rkey()));

        Expect.success(WcOpcode.RDMA_READ, 904, Completions.next(pair.local().sendCq(), "the read"), "read from an on-demand region");
        Bytes.assertSame(source.memory(), sink.memory(), "read bytes");
    }

    @Test
    void messageMixesOnDemandAndPinnedRegions(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.SEND, OdpTransportCapability.RECV);
        Require.scatterGatherEntries(bed, 2);
        RcPair pair = bed.rcPair(new RcSpec().scatterGatherEntries(2));
        Buffer odpSource = OnDemand.buffer(bed, pair.local().pd(), 4096);
        Buffer pinnedSource = pair.local().buffer(4096);
        Buffer odpSink = OnDemand.buffer(bed, pair.remote().pd(), 4096);
        Buffer pinnedSink = pair.remote().buffer(4096);
        Bytes.fill(odpSource.memory(), 104);
        Bytes.fill(pinnedSource.memory(), 105);
        ReceiveWorkRequest recvWr = new ReceiveWorkRequest(2).wrId(905);
        recvWr.sges().add(pinnedSink.region(), 0, 3000).add(odpSink.region(), 0, 4096);
        pair.remote().qp().postRecv(recvWr);

        SendWorkRequest wr = new SendWorkRequest(2).wrId(906).signaled(true).send();
        wr.sges().clear().add(odpSource.region(), 0, 2500).add(pinnedSource.region(), 0, 2500);
        pair.local().qp().postSend(wr);

        Expect.success(WcOpcode.SEND, 906, Completions.next(pair.local().sendCq(), "the send"), "send gathering ODP and pinned memory");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 905, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive scattering into pinned and ODP memory");
        assertEquals(5000, recv.byteLength(), "byte_len");
        Bytes.assertSame(odpSource.slice(0, 2500), pinnedSink.slice(0, 2500), "ODP bytes in the pinned entry");
        Bytes.assertSame(pinnedSource.slice(0, 500), pinnedSink.slice(2500, 500), "pinned bytes in the pinned entry");
        Bytes.assertSame(pinnedSource.slice(500, 2000), odpSink.slice(0, 2000), "pinned bytes in the ODP entry");
    }

    @Test
    void compareAndSwapOnOnDemandRegion(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.ATOMIC);
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = OnDemand.buffer(bed, pair.remote().pd(), 4096);
        Buffer result = OnDemand.buffer(bed, pair.local().pd(), 4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(907).signaled(true).buffer(result.region(), 0, 8)
                .compareAndSwap(target.remoteAddress(64), target.rkey(), 0L, 0x0F0F0F0F0F0F0F0FL));

        Expect.success(WcOpcode.COMP_SWAP, 907, Completions.next(pair.local().sendCq(), "the compare-and-swap"), "CAS on ODP");
        assertEquals(0L, result.memory().get(ValueLayout.JAVA_LONG, 0), "original value");
        assertEquals(0x0F0F0F0F0F0F0F0FL, target.memory().get(ValueLayout.JAVA_LONG, 64), "swapped value");
    }

    @Test
    void fetchAndAddOnOnDemandRegion(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.ATOMIC);
        Require.atomics(bed);
        RcPair pair = bed.rcPair();
        Buffer target = OnDemand.buffer(bed, pair.remote().pd(), 4096);
        Buffer result = OnDemand.buffer(bed, pair.local().pd(), 4096);
        target.memory().set(ValueLayout.JAVA_LONG, 128, 1000L);

        pair.local().qp().postSend(new SendWorkRequest().wrId(908).signaled(true).buffer(result.region(), 8, 8)
                .fetchAndAdd(target.remoteAddress(128), target.rkey(), 24L));

        Expect.success(WcOpcode.FETCH_ADD, 908, Completions.next(pair.local().sendCq(), "the fetch-and-add"), "FAA on ODP");
        assertEquals(1000L, result.memory().get(ValueLayout.JAVA_LONG, 8), "original value");
        assertEquals(1024L, target.memory().get(ValueLayout.JAVA_LONG, 128), "sum");
    }
}
