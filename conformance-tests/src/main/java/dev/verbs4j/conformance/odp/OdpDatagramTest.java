package dev.verbs4j.conformance.odp;

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
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import dev.verbs4j.conformance.fixture.UdPair;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * UD traffic between On-Demand Paging regions, skipped unless both devices report On-Demand
 * Paging SEND and RECV for UD: the sender's pages and the receiver's (GRH and payload) are
 * faulted in as the datagram moves.
 */
@ConformanceSuite
class OdpDatagramTest {
    private static final int PAYLOAD = 1000;

    @Test
    void datagramBetweenOnDemandRegionsArrives(Testbed bed) {
        Require.onDemandPaging(bed, QpType.UD, OdpTransportCapability.SEND, OdpTransportCapability.RECV);
        UdPair pair = bed.udPair();
        Buffer source = OnDemand.buffer(bed, pair.local().pd(), PAYLOAD);
        Buffer sink = OnDemand.buffer(bed, pair.remote().pd(), UdPair.GRH_BYTES + PAYLOAD);
        Bytes.fill(source.memory(), 107);
        pair.remote().qp().postRecv(new ReceiveWorkRequest().wrId(911).buffer(sink.region(), 0, (int) sink.length()));

        pair.local().qp().postSend(new SendWorkRequest().wrId(912).signaled(true).buffer(source.region(), 0, PAYLOAD).send()
                .ud(pair.local().toPeer(), pair.remote().qp().qpn(), pair.qkey()));

        Expect.success(WcOpcode.SEND, 912, Completions.next(pair.local().sendCq(), "the UD send"), "send from an on-demand region");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 911, Completions.next(pair.remote().recvCq(), "the UD receive"),
                "receive into an on-demand region");
        assertEquals(UdPair.GRH_BYTES + PAYLOAD, recv.byteLength(), "byte_len counts the GRH");
        Bytes.assertSame(source.memory(), sink.slice(UdPair.GRH_BYTES, PAYLOAD), "payload after the GRH");
    }
}
