package dev.verbs4j.conformance.atomicwrite;

import dev.verbs4j.DeviceCapability;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;

/**
 * RDMA ATOMIC WRITE (IBTA 1.5, rdma-core 44+) needs the device capability and a queue
 * pair created with it in its send operations ({@code IBV_QP_EX_WITH_ATOMIC_WRITE}).
 * The verbs API carries exactly 8 bytes ({@code ibv_wr_atomic_write}), so payloads of
 * other sizes, which oA19-28 forbids, cannot be produced here; the soft engine's own
 * tests send them on the wire.
 */
final class AtomicWriteSetup {
    private AtomicWriteSetup() {
    }

    static RcPair pair(Testbed bed) {
        return pair(bed, new RcSpec());
    }

    static RcPair pair(Testbed bed, RcSpec spec) {
        Require.capabilities(bed, DeviceCapability.ATOMIC_WRITE);
        return bed.rcPair(spec.allow(WrOpcode.ATOMIC_WRITE));
    }
}
