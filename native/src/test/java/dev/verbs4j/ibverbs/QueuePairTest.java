package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.verbs4j.Errno;
import dev.verbs4j.QpType;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.VerbsException;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Queue pair and SRQ posts through the fake provider's {@code post_recv}, {@code post_srq_recv} and {@code ibv_qp_ex}. */
class QueuePairTest {
    private static final QpCapacity CAPACITY = new QpCapacity(16, 16, 2, 2, 0);

    private final FakeDevice fake = new FakeDevice();

    @AfterEach
    void release() {
        fake.close();
    }

    @Test
    void receiveRequestReachesThePostRecvOfTheProvider() {
        IbverbsQp qp = fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_SEND, CAPACITY);
        ReceiveWorkRequest wr = new ReceiveWorkRequest(2).wrId(0x8000_0000_0000_0009L);
        wr.sges().add(0x1000, 64, 0xfffffff0).add(0x2000, 64, 2);
        qp.postRecv(wr);
        assertEquals("post_recv count=1 first_wr_id=8000000000000009 first_sge_lkey=fffffff0", FakeVerbs.lastCall());
    }

    @Test
    void refusedReceiveCarriesTheProvidersErrnoOfEitherSign() {
        IbverbsQp qp = fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_SEND, CAPACITY);
        ReceiveWorkRequest wr = new ReceiveWorkRequest().wrId(1);
        wr.sges().add(0x1000, 64, 1);
        FakeVerbs.setNextResult(Errno.ENOMEM.number());
        assertEquals(Errno.ENOMEM, assertThrows(VerbsException.class, () -> qp.postRecv(wr)).error());
        FakeVerbs.setNextResult(-Errno.ENOMEM.number()); // rxe's post_recv returns -ENOMEM
        assertEquals(Errno.ENOMEM, assertThrows(VerbsException.class, () -> qp.postRecv(wr)).error());
    }

    @Test
    void receiveWithMoreEntriesThanTheQueueAllowsIsEinval() {
        IbverbsQp qp = fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_SEND, CAPACITY);
        ReceiveWorkRequest wr = new ReceiveWorkRequest(3);
        wr.sges().add(1, 1, 1).add(2, 1, 1).add(3, 1, 1);
        FakeVerbs.clearLastCall();
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> qp.postRecv(wr)).error());
        assertEquals("", FakeVerbs.lastCall());
    }

    @Test
    void queuePairOnAnSrqPostsThereNotHere() {
        IbverbsSrq srq = fake.srq(16, 1);
        IbverbsQp qp = fake.queuePairOn(srq, IbverbsConstants.IBV_QP_EX_WITH_SEND, CAPACITY);
        assertSame(srq, qp.srq());
        ReceiveWorkRequest wr = new ReceiveWorkRequest().wrId(0x42);
        wr.sges().add(0x1000, 64, 1);
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> qp.postRecv(wr)).error());
        srq.postRecv(wr);
        assertEquals("post_srq_recv first_wr_id=42", FakeVerbs.lastCall());
        FakeVerbs.setNextResult(Errno.ENOMEM.number());
        assertEquals(Errno.ENOMEM, assertThrows(VerbsException.class, () -> srq.postRecv(wr)).error());
    }

    @Test
    void sendGoesThroughTheExtendedQueuePair() {
        IbverbsQp qp = fake.queuePair(QpType.RC, IbverbsConstants.IBV_QP_EX_WITH_SEND, CAPACITY);
        SendWorkRequest wr = new SendWorkRequest().wrId(3).signaled(true).send();
        wr.sges().add(0x1000, 16, 1);
        qp.postSend(wr);
        assertEquals("complete wr_id=3 flags=2", FakeVerbs.lastCall());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
                () -> qp.postSend(new SendWorkRequest().rdmaWrite(0x1000, 1))).error(), "not created for RDMA WRITE");
    }

    @Test
    void queuePairKeepsWhatItWasCreatedWith() {
        IbverbsQp qp = fake.queuePair(QpType.UD, IbverbsConstants.IBV_QP_EX_WITH_SEND, CAPACITY);
        assertEquals(QpType.UD, qp.type());
        assertSame(fake.pd, qp.protectionDomain());
        assertSame(fake.cq, qp.sendCq());
        assertSame(fake.cq, qp.recvCq());
        assertEquals(CAPACITY, qp.capacity());
        assertEquals(2, fake.cq.dependents(), "the CQ counts the QP once as send and once as receive queue");
        assertEquals(2, fake.pd.dependents(), "the fake's region and the QP");
    }
}
