package dev.verbs4j.conformance.base;

import dev.verbs4j.Gid;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcFlag;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import dev.verbs4j.conformance.fixture.UdPair;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UD SEND: every receive starts with the 40-byte Global Route Header slot, the
 * completion counts it in byte_len, sets IBV_WC_GRH and names the sender's QP. On
 * RoCEv2 the slot holds the packet's IP header: an IPv4 header in its last 20 bytes
 * for IPv4-mapped GIDs, else the IPv6 header.
 */
@ConformanceSuite
class UdTest {
    private static final int PAYLOAD = 200;

    @Test
    void datagramArrivesBehindGrhWithSenderQpn(Testbed bed) {
        UdPair pair = bed.udPair();
        Buffer source = bed.buffer(pair.local().pd(), PAYLOAD, Buffer.allRemoteAccess());
        Buffer sink = bed.buffer(pair.remote().pd(), UdPair.GRH_BYTES + 1024, Buffer.allRemoteAccess());
        Bytes.fill(source.memory(), 61);
        pair.remote().qp().postRecv(new ReceiveWorkRequest().wrId(111).buffer(sink.region(), 0, (int) sink.length()));

        pair.local().qp().postSend(new SendWorkRequest().wrId(91).signaled(true).buffer(source.region(), 0, PAYLOAD).send()
                .ud(pair.local().toPeer(), pair.remote().qp().qpn(), pair.qkey()));

        Expect.success(WcOpcode.SEND, 91, Completions.next(pair.local().sendCq(), "the UD send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 111, Completions.next(pair.remote().recvCq(), "the UD receive"), "receive");
        assertEquals(UdPair.GRH_BYTES + PAYLOAD, recv.byteLength(), "byte_len counts the 40-byte GRH");
        assertTrue(WcFlag.GRH.isSet(recv.flags()), "IBV_WC_GRH is set: " + recv);
        assertEquals(pair.local().qp().qpn(), recv.srcQp(), "src_qp names the sending QP");
        Bytes.assertSame(source.memory(), sink.slice(UdPair.GRH_BYTES, PAYLOAD), "payload after the GRH");
    }

    @Test
    void grhCarriesTheSendersAddress(Testbed bed) {
        UdPair pair = bed.udPair();
        Buffer source = bed.buffer(pair.local().pd(), 16, Buffer.allRemoteAccess());
        Buffer sink = bed.buffer(pair.remote().pd(), UdPair.GRH_BYTES + 64, Buffer.allRemoteAccess());
        pair.remote().qp().postRecv(new ReceiveWorkRequest().wrId(112).buffer(sink.region(), 0, (int) sink.length()));

        pair.local().qp().postSend(new SendWorkRequest().wrId(92).signaled(true).buffer(source.region(), 0, 16).send()
                .ud(pair.local().toPeer(), pair.remote().qp().qpn(), pair.qkey()));

        Expect.success(WcOpcode.SEND, 92, Completions.next(pair.local().sendCq(), "the UD send"), "send completion");
        Expect.success(WcOpcode.RECV, 112, Completions.next(pair.remote().recvCq(), "the UD receive"), "receive");
        Gid sender = pair.local().side().gid();
        Gid receiver = pair.remote().side().gid();
        MemorySegment grh = sink.slice(0, UdPair.GRH_BYTES);
        if (sender.isIpv4Mapped()) {
            assertEquals(0x45, grh.get(ValueLayout.JAVA_BYTE, 20) & 0xff, "IPv4 version and header length at GRH byte 20");
            assertArrayEquals(sender.toInetAddress().getAddress(), grh.asSlice(32, 4).toArray(ValueLayout.JAVA_BYTE),
                    "IPv4 source address in the GRH");
            assertArrayEquals(receiver.toInetAddress().getAddress(), grh.asSlice(36, 4).toArray(ValueLayout.JAVA_BYTE),
                    "IPv4 destination address in the GRH");
        } else {
            assertEquals(6, (grh.get(ValueLayout.JAVA_BYTE, 0) & 0xff) >>> 4, "IPv6 version in the GRH");
            assertArrayEquals(sender.toBytes(), grh.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE), "source GID in the GRH");
            assertArrayEquals(receiver.toBytes(), grh.asSlice(24, 16).toArray(ValueLayout.JAVA_BYTE), "destination GID in the GRH");
        }
    }

    @Test
    void datagramWithImmediateReportsImmediateData(Testbed bed) {
        UdPair pair = bed.udPair();
        Buffer source = bed.buffer(pair.local().pd(), 8, Buffer.allRemoteAccess());
        Buffer sink = bed.buffer(pair.remote().pd(), UdPair.GRH_BYTES + 64, Buffer.allRemoteAccess());
        pair.remote().qp().postRecv(new ReceiveWorkRequest().wrId(113).buffer(sink.region(), 0, (int) sink.length()));

        pair.local().qp().postSend(new SendWorkRequest().wrId(93).signaled(true).buffer(source.region(), 0, 8).sendWithImm(0x5EED)
                .ud(pair.local().toPeer(), pair.remote().qp().qpn(), pair.qkey()));

        Expect.success(WcOpcode.SEND, 93, Completions.next(pair.local().sendCq(), "the UD send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 113, Completions.next(pair.remote().recvCq(), "the UD receive"), "receive");
        assertTrue(recv.withImm(), "IBV_WC_WITH_IMM is set: " + recv);
        assertEquals(0x5EED, recv.immData(), "imm_data");
        assertEquals(UdPair.GRH_BYTES + 8, recv.byteLength(), "byte_len");
    }

    @Test
    void zeroLengthDatagramDeliversOnlyTheGrh(Testbed bed) {
        UdPair pair = bed.udPair();
        Buffer sink = bed.buffer(pair.remote().pd(), UdPair.GRH_BYTES + 64, Buffer.allRemoteAccess());
        pair.remote().qp().postRecv(new ReceiveWorkRequest().wrId(114).buffer(sink.region(), 0, (int) sink.length()));
        SendWorkRequest wr = new SendWorkRequest().wrId(94).signaled(true).send()
                .ud(pair.local().toPeer(), pair.remote().qp().qpn(), pair.qkey());
        wr.sges().clear();

        pair.local().qp().postSend(wr);

        Expect.success(WcOpcode.SEND, 94, Completions.next(pair.local().sendCq(), "the zero-length UD send"), "send completion");
        WorkCompletion recv = Expect.success(WcOpcode.RECV, 114, Completions.next(pair.remote().recvCq(), "the UD receive"), "receive");
        assertEquals(UdPair.GRH_BYTES, recv.byteLength(), "byte_len of a zero-length datagram is the GRH alone");
        assertEquals(pair.local().qp().qpn(), recv.srcQp(), "src_qp names the sending QP");
    }
}
