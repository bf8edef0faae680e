package dev.verbs4j.conformance.errors;

import dev.verbs4j.CompletionQueue;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.QueuePair;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * A resource with live children or users refuses to be destroyed with EBUSY, as
 * {@code ibv_dealloc_pd} and {@code ibv_destroy_cq} do, and can be destroyed once they are gone.
 * (The testbed closes everything again when the case ends; a second close does nothing.)
 */
@ConformanceSuite
class ResourceLifetimeTest {

    @Test
    void closingPdWithLiveRegionFailsWithEbusy(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemoryRegion region = bed.track(pd.registerMemory(bed.memory(4096), Buffer.allRemoteAccess()));

        Expect.errno(Errno.EBUSY, pd::close, "dealloc_pd with a registered region");

        region.close();
        assertDoesNotThrow(pd::close, "dealloc_pd once the region is deregistered");
    }

    @Test
    void closingPdWithLiveQueuePairFailsWithEbusy(Testbed bed) {
        CompletionQueue cq = bed.cq(bed.local(), 16);
        ProtectionDomain pd = bed.pd(bed.local());
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, cq)));

        Expect.errno(Errno.EBUSY, pd::close, "dealloc_pd with a queue pair");

        qp.close();
        assertDoesNotThrow(pd::close, "dealloc_pd once the queue pair is destroyed");
    }

    @Test
    void closingCqUsedByQueuePairFailsWithEbusy(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        CompletionQueue cq = bed.cq(bed.local(), 16);
        QueuePair qp = bed.track(pd.createQp(new QpInitAttributes(QpType.RC, cq)));

        Expect.errno(Errno.EBUSY, cq::close, "destroy_cq with a queue pair using it");

        qp.close();
        assertDoesNotThrow(cq::close, "destroy_cq once the queue pair is destroyed");
    }
}
