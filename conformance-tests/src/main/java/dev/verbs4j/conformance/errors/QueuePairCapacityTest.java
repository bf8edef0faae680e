package dev.verbs4j.conformance.errors;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

/**
 * A queue pair asked for more than the device allows ({@code max_qp_wr}, {@code max_sge} in
 * {@code ibv_query_device_ex}) is not created: {@code ibv_create_qp} fails with EINVAL.
 */
@ConformanceSuite
class QueuePairCapacityTest {

    private static void expectRefused(Testbed bed, int sendWr, int recvWr, int sendSge, int recvSge, String what) {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 16);
        // RC, which every transport has: the limits are the device's, whatever the type.
        QpInitAttributes attributes = new QpInitAttributes(QpType.RC, cq).capacity(sendWr, recvWr, sendSge, recvSge, 0);

        Expect.errno(Errno.EINVAL, () -> bed.track(pd.createQp(attributes)), what);
    }

    @Test
    void sendQueueDeeperThanTheDeviceAllowsFailsWithEinval(Testbed bed) {
        DeviceAttributes a = bed.local().attributes();
        expectRefused(bed, a.maxQpWr() + 1, 1, 1, 1, "create_qp with max_send_wr " + (a.maxQpWr() + 1) + " over max_qp_wr");
    }

    @Test
    void receiveQueueDeeperThanTheDeviceAllowsFailsWithEinval(Testbed bed) {
        DeviceAttributes a = bed.local().attributes();
        expectRefused(bed, 1, a.maxQpWr() + 1, 1, 1, "create_qp with max_recv_wr " + (a.maxQpWr() + 1) + " over max_qp_wr");
    }

    @Test
    void moreSendEntriesThanTheDeviceAllowsFailsWithEinval(Testbed bed) {
        DeviceAttributes a = bed.local().attributes();
        expectRefused(bed, 1, 1, a.maxSge() + 1, 1, "create_qp with max_send_sge " + (a.maxSge() + 1) + " over max_sge");
    }

    @Test
    void moreReceiveEntriesThanTheDeviceAllowsFailsWithEinval(Testbed bed) {
        DeviceAttributes a = bed.local().attributes();
        expectRefused(bed, 1, 1, 1, a.maxSge() + 1, "create_qp with max_recv_sge " + (a.maxSge() + 1) + " over max_sge");
    }
}
