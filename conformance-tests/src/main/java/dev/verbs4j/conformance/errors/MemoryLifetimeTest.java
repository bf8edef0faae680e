package dev.verbs4j.conformance.errors;

import dev.verbs4j.Errno;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Memory that is no longer alive is not registered: once its arena is closed, the bytes
 * belong to the allocator again, and a region over them would let a peer write into
 * whatever the process puts there next. Both providers refuse it with EINVAL.
 */
@ConformanceSuite
class MemoryLifetimeTest {

    @Test
    void registeringMemoryOfAClosedArenaFailsWithEinval(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        MemorySegment freed;
        try (Arena arena = Arena.ofShared()) {
            freed = arena.allocate(4096, Testbed.PAGE);
        }

        Expect.errno(Errno.EINVAL, () -> bed.track(pd.registerMemory(freed, Buffer.allRemoteAccess())),
                "reg_mr over memory whose arena is closed");
    }
}
