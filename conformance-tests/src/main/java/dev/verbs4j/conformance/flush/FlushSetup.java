package dev.verbs4j.conformance.flush;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * What every FLUSH case needs (IBTA 1.5 memory placement extensions, rdma-core 45+): the
 * device capability, a queue pair created with FLUSH in its send operations
 * ({@code IBV_QP_EX_WITH_FLUSH}) granting the placement types, and a target region
 * registered with them.
 */
final class FlushSetup {
    private FlushSetup() {
    }

    /** Skips unless both devices report global-visibility FLUSH. */
    static void requireGlobal(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.FLUSH_GLOBAL);
    }

    /** Skips unless both devices report both placement types. */
    static void requirePersistent(Testbed bed) {
        Require.capabilities(bed, DeviceCapability.FLUSH_GLOBAL, DeviceCapability.FLUSH_PERSISTENT);
    }

    /** A pair whose queue pairs allow FLUSH and grant remote read, write and {@code flushRights}. */
    static RcPair pair(Testbed bed, Access... flushRights) {
        Set<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
        access.addAll(Set.of(flushRights));
        return bed.rcPair(new RcSpec().allow(WrOpcode.FLUSH).qpAccess(access));
    }

    /** A remote region of fresh memory with remote read, write and {@code flushRights}. */
    static Buffer target(Testbed bed, RcPair pair, long bytes, Access... flushRights) {
        return register(bed, pair, bed.memory(bytes), flushRights);
    }

    /** Registers {@code memory} on the remote side; a refusal of the flush rights skips the case. */
    static Buffer register(Testbed bed, RcPair pair, MemorySegment memory, Access... flushRights) {
        Set<Access> access = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
        access.addAll(Set.of(flushRights));
        return Require.supportedAtCreation("a region registered with " + Set.of(flushRights) + " on " + bed.remote(),
                () -> bed.register(pair.remote().pd(), memory, access));
    }
}
