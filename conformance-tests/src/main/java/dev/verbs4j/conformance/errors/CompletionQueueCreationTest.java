package dev.verbs4j.conformance.errors;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

/**
 * A completion queue the device cannot have is not created ({@code ibv_create_cq} fails with
 * EINVAL): one entry more than {@code max_cqe}, or a completion vector past
 * {@code num_comp_vectors}.
 */
@ConformanceSuite
class CompletionQueueCreationTest {

    @Test
    void queueLargerThanTheDeviceAllowsFailsWithEinval(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int entries = bed.local().attributes().maxCqe() + 1;

        Expect.errno(Errno.EINVAL, () -> bed.track(ctx.createCq(entries, null, 0)), "create_cq of " + entries + " entries, one over max_cqe");
    }

    @Test
    void vectorPastTheDevicesFailsWithEinval(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        int vector = ctx.completionVectorCount() + 1;

        Expect.errno(Errno.EINVAL, () -> bed.track(ctx.createCq(100, null, vector)),
                "create_cq on vector " + vector + " of a device with " + (vector - 1));
    }
}
