package dev.verbs4j.conformance.base;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DataInOrder;
import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpEndpoint;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.RcConnector;
import dev.verbs4j.RcOptions;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Creating and setting up queue pairs ({@code ibv_create_qp}, {@code ibv_query_qp},
 * {@code ibv_modify_qp}): a new queue pair of each type starts in RESET with at least the
 * capacities asked for, takes its first transition, and reports back what it was given.
 */
@ConformanceSuite
class QueuePairCreationTest {
    private static final int SEND_WR = 20;
    private static final int RECV_WR = 30;
    private static final int SGE = 1;

    private static QueuePair create(Testbed bed, QpType type) {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 100);
        if (type != QpType.RC) {
            // UC and UD are the InfiniBand transport's (RoCE included); iWARP has RC only.
            Require.infinibandTransport(bed, type + " queue pairs (iWARP has RC only)");
        }
        return bed.track(pd.createQp(new QpInitAttributes(type, cq).capacity(SEND_WR, RECV_WR, SGE, SGE, 0)));
    }

    private static void assertFreshInReset(QueuePair qp) {
        QpAttributes attributes = qp.query(new QpAttributes());
        assertEquals(QpState.RESET, attributes.state(), "state of a new " + qp.type() + " queue pair");
        assertTrue(attributes.maxSendWr() >= SEND_WR, "max_send_wr " + attributes.maxSendWr() + " below the " + SEND_WR + " asked");
        assertTrue(attributes.maxRecvWr() >= RECV_WR, "max_recv_wr " + attributes.maxRecvWr() + " below the " + RECV_WR + " asked");
        assertTrue(attributes.maxSendSge() >= SGE && attributes.maxRecvSge() >= SGE,
                "max_send_sge " + attributes.maxSendSge() + ", max_recv_sge " + attributes.maxRecvSge());
    }

    private static void connectedToInit(QueuePair qp) {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(DeviceSide.PORT)
                .access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE)));
        assertEquals(QpState.INIT, QpStates.query(qp), qp.type() + " queue pair after RESET -> INIT");
    }

    @Test
    void rcQueuePairStartsInResetAndTakesInit(Testbed bed) {
        QueuePair qp = create(bed, QpType.RC);
        assertFreshInReset(qp);
        connectedToInit(qp);
    }

    @Test
    void ucQueuePairStartsInResetAndTakesInit(Testbed bed) {
        QueuePair qp = create(bed, QpType.UC);
        assertFreshInReset(qp);
        connectedToInit(qp);
    }

    @Test
    void udQueuePairStartsInResetAndReachesRtsWithoutAPeer(Testbed bed) {
        QueuePair qp = create(bed, QpType.UD);
        assertFreshInReset(qp);

        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(DeviceSide.PORT).qkey(0x123));
        qp.modify(new QpAttributes().state(QpState.RTR));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0x45));
        assertEquals(QpState.RTS, QpStates.query(qp), "UD queue pair after INIT, RTR and RTS");
    }

    @Test
    void udQueuePairReportsItsQkeyAndSendPsnThenGoesBackToReset(Testbed bed) {
        QueuePair qp = create(bed, QpType.UD);

        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(DeviceSide.PORT).qkey(0x123));
        assertEquals(0x123, qp.query(new QpAttributes()).qkey(), "qkey after RESET -> INIT");
        qp.modify(new QpAttributes().state(QpState.RTR));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0x45));
        assertEquals(0x45, qp.query(new QpAttributes()).sqPsn(), "sq_psn after RTR -> RTS");
        qp.modify(new QpAttributes().state(QpState.RESET));
        assertEquals(QpState.RESET, QpStates.query(qp), "state after RTS -> RESET");
    }

    @Test
    void rcQueuePairGrantsAtLeastTheReadAtomicDepthAsked(Testbed bed) {
        int depth = 12;
        int deviceDepth = Math.min(bed.local().attributes().maxQpRdAtom(), bed.local().attributes().maxQpInitRdAtom());
        Assumptions.assumeTrue(deviceDepth >= depth,
                () -> bed.local() + " allows " + deviceDepth + " outstanding reads and atomics per queue pair, the case asks " + depth);
        Require.connectsWithoutConnectionManager(bed);
        QueuePair qp = create(bed, QpType.RC);
        // Connected to itself: a loopback queue pair needs no peer to reach RTS.
        QpEndpoint self = new QpEndpoint(qp.qpn(), 0x100, bed.local().gid(), bed.local().port().activeMtu(), 0, 0, 0, 0);
        RcConnector.bringUp(qp, self, self, new RcOptions().gidIndex(bed.local().gidIndex()).maxRdAtomic(depth));

        QpAttributes attributes = qp.query(new QpAttributes());
        assertTrue(attributes.maxRdAtomic() >= depth, "max_rd_atomic " + attributes.maxRdAtomic() + " below the " + depth + " asked");
        assertTrue(attributes.maxDestRdAtomic() >= depth, "max_dest_rd_atomic " + attributes.maxDestRdAtomic() + " below the " + depth + " asked");
    }

    /** Q_Keys with the high bit set are privileged: setting one needs CAP_NET_RAW, and the queue pair reports it back. */
    @Test
    void udQueuePairKeepsAPrivilegedQkey(Testbed bed) {
        int privileged = 0x80000000;
        QueuePair qp = create(bed, QpType.UD);
        try {
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(DeviceSide.PORT).qkey(privileged));
        } catch (VerbsException e) {
            Assumptions.assumeFalse(e.error() == Errno.EPERM, "a privileged Q_Key needs CAP_NET_RAW: " + e.getMessage());
            throw e;
        }
        assertEquals(privileged, qp.query(new QpAttributes()).qkey(), "qkey after RESET -> INIT with the privileged Q_Key");
    }

    @Test
    void dataInOrderReportsAGuaranteeLibibverbsDefines(Testbed bed) {
        QueuePair qp = bed.udPair().local().qp();
        Set<DataInOrder> guarantees = qp.dataInOrder(WrOpcode.SEND);
        // Whole messages in order imply aligned 128-byte blocks in order (libibverbs adds the second to the first).
        Set<Set<DataInOrder>> valid = Set.of(Set.of(), Set.of(DataInOrder.ALIGNED_128_BYTES),
                Set.of(DataInOrder.WHOLE_MESSAGE, DataInOrder.ALIGNED_128_BYTES));
        assertTrue(valid.contains(guarantees), "query_qp_data_in_order(SEND) of a UD queue pair at RTS: " + guarantees);
    }
}
