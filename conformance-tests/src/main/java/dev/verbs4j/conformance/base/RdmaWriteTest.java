package dev.verbs4j.conformance.base;

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

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RDMA WRITE places bytes at the remote address; with immediate data it also consumes one receive. */
@ConformanceSuite
class RdmaWriteTest {

    @Test
    void writePlacesBytesAtRemoteAddress(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer source = pair.local().buffer(4096);
        Buffer target = pair.remote().buffer(4096);
        Bytes.fill(source.memory(), 31);

        pair.local().qp().postSend(new SendWorkRequest().wrId(51).signaled(true).buffer(source.region(), 0, 777)
                .rdmaWrite(target.remoteAddress(100), target.rkey()));

        Expect.success(WcOpcode.RDMA_WRITE, 51, Completions.next(pair.local().sendCq(), "the write"), "write completion");
        Bytes.assertFilled(target.slice(0, 100), (byte) 0, "bytes before the written range");
        Bytes.assertSame(source.slice(0, 777), target.slice(100, 777), "written bytes");
        Bytes.assertFilled(target.slice(877, 4096 - 877), (byte) 0, "bytes after the written range");
        Completions.assertNone(pair.remote().recvCq(), Duration.ofMillis(20), "a plain write consumes no receive");
    }

    @Test
    void writeLargerThanMtuPlacesEveryByte(Testbed bed) {
        RcPair pair = bed.rcPair();
        int length = 5 * pair.mtu().bytes() + 17;
        Buffer source = pair.local().buffer(length);
        Buffer target = pair.remote().buffer(length);
        Bytes.fill(source.memory(), 32);

        pair.local().qp().postSend(new SendWorkRequest().wrId(52).signaled(true).buffer(source.region(), 0, length)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));

        Expect.success(WcOpcode.RDMA_WRITE, 52, Completions.next(pair.local().sendCq(), "the multi-packet write"), "write completion");
        Bytes.assertSame(source.memory(), target.memory(), "written bytes");
    }

    @Test
    void writeWithImmediateConsumesReceiveAndReportsLength(Testbed bed) {
        Require.infinibandTransport(bed, "immediate data (RDMAP of RFC 5040 carries none)");
        RcPair pair = bed.rcPair();
        int length = 2 * pair.mtu().bytes() + 5;
        Buffer source = pair.local().buffer(length);
        Buffer target = pair.remote().buffer(length);
        Buffer receive = pair.remote().buffer(64);
        Bytes.fill(source.memory(), 33);
        pair.remote().postRecv(61, receive, 0, 64);

        pair.local().qp().postSend(new SendWorkRequest().wrId(53).signaled(true).buffer(source.region(), 0, length)
                .rdmaWriteWithImm(target.remoteAddress(0), target.rkey(), 0x0BADF00D));

        Expect.success(WcOpcode.RDMA_WRITE, 53, Completions.next(pair.local().sendCq(), "the write with immediate"), "write completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV_RDMA_WITH_IMM, 61,
                Completions.next(pair.remote().recvCq(), "the receive consumed by the write"), "receive completion");
        assertEquals(length, recv.byteLength(), "byte_len is the write's length");
        assertTrue(WcFlag.WITH_IMM.isSet(recv.flags()), "IBV_WC_WITH_IMM is set: " + recv);
        assertEquals(0x0BADF00D, recv.immData(), "imm_data");
        Bytes.assertSame(source.memory(), target.memory(), "written bytes");
        Bytes.assertFilled(receive.memory(), (byte) 0, "the receive buffer of a write with immediate");
    }

    @Test
    void zeroLengthWriteCompletes(Testbed bed) {
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);
        SendWorkRequest wr = new SendWorkRequest().wrId(54).signaled(true).rdmaWrite(target.remoteAddress(0), target.rkey());
        wr.sges().clear();

        pair.local().qp().postSend(wr);

        WorkCompletion wc = Expect.success(WcOpcode.RDMA_WRITE, 54, Completions.next(pair.local().sendCq(), "the zero-length write"),
                "write completion");
        assertEquals(0, wc.byteLength(), "byte_len of a zero-length write");
        Bytes.assertFilled(target.memory(), (byte) 0, "target of a zero-length write");
    }

    @Test
    void zeroLengthWriteWithImmediateReportsZeroBytes(Testbed bed) {
        Require.infinibandTransport(bed, "immediate data (RDMAP of RFC 5040 carries none)");
        RcPair pair = bed.rcPair();
        Buffer target = pair.remote().buffer(64);
        Buffer receive = pair.remote().buffer(64);
        pair.remote().postRecv(62, receive, 0, 64);
        SendWorkRequest wr = new SendWorkRequest().wrId(55).signaled(true)
                .rdmaWriteWithImm(target.remoteAddress(0), target.rkey(), 77);
        wr.sges().clear();

        pair.local().qp().postSend(wr);

        Expect.success(WcOpcode.RDMA_WRITE, 55, Completions.next(pair.local().sendCq(), "the zero-length write"), "write completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV_RDMA_WITH_IMM, 62, Completions.next(pair.remote().recvCq(), "the receive"),
                "receive completion");
        assertEquals(0, recv.byteLength(), "byte_len of a zero-length write with immediate");
        assertEquals(77, recv.immData(), "imm_data");
    }
}
