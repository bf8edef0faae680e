package dev.verbs4j.conformance.errors;

import dev.verbs4j.Access;
import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * A region that would let a peer write into memory the local side cannot write is refused
 * with EINVAL ({@code ibv_reg_mr}, IBTA 10.6.3.1): REMOTE_WRITE and REMOTE_ATOMIC need
 * LOCAL_WRITE.
 */
@ConformanceSuite
class RegistrationAccessTest {

    @Test
    void remoteWriteWithoutLocalWriteFailsWithEinval(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemorySegment memory = bed.memory(4096);

        Expect.errno(Errno.EINVAL, () -> bed.track(pd.registerMemory(memory, EnumSet.of(Access.REMOTE_WRITE))),
                "reg_mr with REMOTE_WRITE alone");
    }

    @Test
    void remoteAtomicWithoutLocalWriteFailsWithEinval(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemorySegment memory = bed.memory(4096);

        Expect.errno(Errno.EINVAL, () -> bed.track(pd.registerMemory(memory, EnumSet.of(Access.REMOTE_ATOMIC))),
                "reg_mr with REMOTE_ATOMIC alone");
    }
}
