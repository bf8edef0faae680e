package dev.verbs4j.conformance.errors;

import dev.verbs4j.Access;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpAttributes;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.QpStates;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Queue pair state rules (IBTA 10.3.1, 11.2.1.2): a send queue accepts work only from RTS
 * on, a transition must be legal and carry exactly its required attributes, and a
 * refused modify leaves the state as it was. Every refusal is EINVAL.
 */
@ConformanceSuite
class QpStateTest {

    private static QueuePair freshQp(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 16);
        return bed.track(pd.createQp(new QpInitAttributes(QpType.RC, cq)));
    }

    private static QpAttributes toInit() {
        return new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(DeviceSide.PORT)
                .access(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
    }

    @Test
    void postSendInResetFailsWithEinval(Testbed bed) {
        QueuePair qp = freshQp(bed);
        Buffer source = bed.buffer(qp.protectionDomain(), 64, Buffer.allRemoteAccess());

        Expect.errno(Errno.EINVAL, () -> qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(source.region(), 0, 8).send()),
                "post_send on a queue pair in RESET");
    }

    @Test
    void postSendInInitFailsWithEinval(Testbed bed) {
        QueuePair qp = freshQp(bed);
        qp.modify(toInit());
        Buffer source = bed.buffer(qp.protectionDomain(), 64, Buffer.allRemoteAccess());

        Expect.errno(Errno.EINVAL, () -> qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(source.region(), 0, 8).send()),
                "post_send on a queue pair in INIT");
    }

    @Test
    void skippingFromResetToRtsFailsWithEinval(Testbed bed) {
        QueuePair qp = freshQp(bed);

        Expect.errno(Errno.EINVAL, () -> qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0).timeout(14).retryCount(7)
                .rnrRetry(7).maxRdAtomic(1)), "modify RESET -> RTS");
        assertEquals(QpState.RESET, QpStates.query(qp), "state after the refused modify");
    }

    @Test
    void initWithoutRequiredAttributesFailsWithEinval(Testbed bed) {
        QueuePair qp = freshQp(bed);

        Expect.errno(Errno.EINVAL, () -> qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0)),
                "modify RESET -> INIT without port and access flags");
        assertEquals(QpState.RESET, QpStates.query(qp), "state after the refused modify");
    }

    @Test
    void rtrWithoutDestinationFailsWithEinval(Testbed bed) {
        QueuePair qp = freshQp(bed);
        qp.modify(toInit());

        Expect.errno(Errno.EINVAL, () -> qp.modify(new QpAttributes().state(QpState.RTR).pathMtu(bed.local().port().activeMtu())
                .rqPsn(0).maxDestRdAtomic(1).minRnrTimer(12)), "modify INIT -> RTR without address vector and destination QPN");
        assertEquals(QpState.INIT, QpStates.query(qp), "state after the refused modify");
    }
}
