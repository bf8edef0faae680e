package dev.verbs4j.conformance.base;

import dev.verbs4j.QpAttributes;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcFlag;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RC SEND: the message lands in the peer's next receive and both sides complete as libibverbs reports it. */
@ConformanceSuite
class SendReceiveTest {

    @Test
    void sendLandsInPostedReceive(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer sink = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 1);
        pair.remote().postRecv(71, sink, 0, 4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(17).signaled(true).buffer(source.region(), 0, 1000).send());

        Expect.success(WcOpcode.SEND, 17, Completions.next(pair.local().sendCq(), "the send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 71, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion");
        assertEquals(1000, recv.byteLength(), "byte_len of the receive");
        assertEquals(pair.remote().qp().qpn(), recv.qpNum(), "qp_num of the receive");
        assertFalse(recv.withImm(), "a plain SEND carries no immediate data: " + recv);
        Bytes.assertSame(source.slice(0, 1000), sink.slice(0, 1000), "received bytes");
        Bytes.assertFilled(sink.slice(1000, 3096), (byte) 0, "bytes past the message");
    }

    /** ibv_query_qp reports the PSNs in use: the next one the requester sends and the next one the responder expects. */
    @Test
    void queryReportsThePsnsInUse(Testbed bed) {
        Require.infinibandTransport(bed, "packet sequence numbers: iWARP orders its messages in a TCP stream");
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer sink = pair.remote().buffer(4096);
        QpAttributes attributes = new QpAttributes();
        int sqBefore = pair.local().qp().query(attributes).sqPsn();
        int rqBefore = pair.remote().qp().query(attributes).rqPsn();

        for (int i = 0; i < 3; i++) {
            pair.remote().postRecv(80 + i, sink, 0, 4096);
            pair.local().qp().postSend(new SendWorkRequest().wrId(20 + i).signaled(true).buffer(source.region(), 0, 100).send());
            Expect.success(WcOpcode.SEND, 20 + i, Completions.next(pair.local().sendCq(), "send " + i), "send completion");
            Expect.success(WcOpcode.RECV, 80 + i, Completions.next(pair.remote().recvCq(), "receive " + i), "receive completion");
        }

        assertEquals((sqBefore + 3) & 0xFFFFFF, pair.local().qp().query(attributes).sqPsn(), "sq_psn after three one-packet sends");
        assertEquals((rqBefore + 3) & 0xFFFFFF, pair.remote().qp().query(attributes).rqPsn(), "rq_psn after three one-packet receives");
    }

    @Test
    void sendWithImmediateReportsImmediateData(Testbed bed) {
        Require.infinibandTransport(bed, "immediate data (RDMAP of RFC 5040 carries none)");
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer sink = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 2);
        pair.remote().postRecv(72, sink, 0, 4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(18).signaled(true).buffer(source.region(), 0, 300)
                .sendWithImm(0xCAFE1234));

        Expect.success(WcOpcode.SEND, 18, Completions.next(pair.local().sendCq(), "the send with immediate"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 72, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion");
        assertTrue(WcFlag.WITH_IMM.isSet(recv.flags()), "IBV_WC_WITH_IMM is set: " + recv);
        assertEquals(0xCAFE1234, recv.immData(), "imm_data of the receive");
        assertEquals(300, recv.byteLength(), "byte_len of the receive");
        Bytes.assertSame(source.slice(0, 300), sink.slice(0, 300), "received bytes");
    }

    @Test
    void sendLargerThanMtuArrivesWhole(Testbed bed) {
        RcPair pair = bed.rcPair();
        int length = 3 * pair.mtu().bytes() + 123;
        Buffer source = pair.local().buffer(length);
        Buffer sink = pair.remote().buffer(length + 64);
        Bytes.fill(source.memory(), 3);
        pair.remote().postRecv(73, sink, 0, length + 64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(19).signaled(true).buffer(source.region(), 0, length).send());

        Expect.success(WcOpcode.SEND, 19, Completions.next(pair.local().sendCq(), "the multi-packet send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 73, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion");
        assertEquals(length, recv.byteLength(), "byte_len of a " + length + "-byte send over MTU " + pair.mtu().bytes());
        Bytes.assertSame(source.memory(), sink.slice(0, length), "received bytes");
    }

    @Test
    void zeroLengthSendCompletesWithZeroBytes(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer sink = pair.remote().buffer(64);
        pair.remote().postRecv(74, sink, 0, 64);

        SendWorkRequest wr = new SendWorkRequest().wrId(20).signaled(true).send();
        wr.sges().clear();
        pair.local().qp().postSend(wr);

        Expect.success(WcOpcode.SEND, 20, Completions.next(pair.local().sendCq(), "the zero-length send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 74, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion");
        assertEquals(0, recv.byteLength(), "byte_len of a zero-length send");
    }
}
