package dev.verbs4j.conformance.errors;

import dev.verbs4j.Errno;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QueuePair;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import dev.verbs4j.conformance.fixture.UdPair;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * A post the queue pair cannot take is refused at once, nothing posted: a receive into a
 * full receive queue with ENOMEM, a receive with more scatter entries than the queue pair
 * was created for with EINVAL, and a receive or a send on a queue pair moved back to RESET
 * with EINVAL. The limits are the ones {@code ibv_query_qp} reports.
 */
@ConformanceSuite
class WorkQueueLimitsTest {

    private static Buffer receiveBuffer(Testbed bed, UdPair pair) {
        return bed.buffer(pair.local().pd(), 4096, Buffer.allRemoteAccess());
    }

    @Test
    void receiveIntoFullQueueFailsWithEnomem(Testbed bed) {
        UdPair pair = bed.udPair();
        QueuePair qp = pair.local().qp();
        Buffer sink = receiveBuffer(bed, pair);
        int depth = qp.query(new QpAttributes()).maxRecvWr();
        ReceiveWorkRequest wr = new ReceiveWorkRequest().buffer(sink.region(), 0, 256);

        for (int i = 0; i < depth; i++) {
            long id = i;
            assertDoesNotThrow(() -> qp.postRecv(wr.wrId(id)), "receive " + (id + 1) + " of the " + depth + " max_recv_wr allows");
        }
        Expect.errno(Errno.ENOMEM, () -> qp.postRecv(wr.wrId(depth)), "receive " + (depth + 1) + " into a queue of " + depth);
    }

    @Test
    void receiveWithMoreEntriesThanTheQueuePairAllowsFailsWithEinval(Testbed bed) {
        UdPair pair = bed.udPair();
        QueuePair qp = pair.local().qp();
        Buffer sink = receiveBuffer(bed, pair);
        int entries = qp.query(new QpAttributes()).maxRecvSge() + 1;
        ReceiveWorkRequest wr = new ReceiveWorkRequest(entries).wrId(1);
        int length = (int) sink.length() / entries;
        for (int i = 0; i < entries; i++) {
            wr.sges().add(sink.region(), (long) i * length, length);
        }

        Expect.errno(Errno.EINVAL, () -> qp.postRecv(wr), "a receive of " + entries + " entries where max_recv_sge is " + (entries - 1));
    }

    @Test
    void receiveAfterMoveToResetFailsWithEinval(Testbed bed) {
        UdPair pair = bed.udPair();
        QueuePair qp = pair.local().qp();
        Buffer sink = receiveBuffer(bed, pair);
        qp.modify(new QpAttributes().state(QpState.RESET));

        Expect.errno(Errno.EINVAL, () -> qp.postRecv(new ReceiveWorkRequest().wrId(2).buffer(sink.region(), 0, 256)),
                "post_recv on a queue pair moved from RTS to RESET");
    }

    @Test
    void sendAfterMoveToResetFailsWithEinval(Testbed bed) {
        UdPair pair = bed.udPair();
        QueuePair qp = pair.local().qp();
        Buffer source = bed.buffer(pair.local().pd(), 64, Buffer.allRemoteAccess());
        qp.modify(new QpAttributes().state(QpState.RESET));

        Expect.errno(Errno.EINVAL, () -> qp.postSend(new SendWorkRequest().wrId(3).signaled(true).buffer(source.region(), 0, 64).send()
                .ud(pair.local().toPeer(), pair.remote().qp().qpn(), pair.qkey())), "post_send on a queue pair moved from RTS to RESET");
    }
}
