package dev.verbs4j.conformance.base;

import dev.verbs4j.Errno;
import dev.verbs4j.ForkStatus;
import dev.verbs4j.Provider;
import dev.verbs4j.Verbs;
import dev.verbs4j.VerbsException;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fork protection ({@code ibv_fork_init}, {@code ibv_is_fork_initialized}): asking for it
 * leaves registered memory protected, or not in need of protection; asked for after memory
 * was registered (which earlier cases of the suite did), libibverbs may refuse with EINVAL,
 * and then the status says unprotected, or not in need of it.
 */
@ConformanceSuite
class ForkProtectionTest {

    @Test
    void forkProtectionIsEnabledOrUnneeded(Testbed bed) {
        Provider provider = Verbs.provider(bed.local().context().device().providerName());
        Set<ForkStatus> expected;
        try {
            provider.enableForkProtection();
            expected = Set.of(ForkStatus.ENABLED, ForkStatus.UNNEEDED);
        } catch (VerbsException e) {
            assertEquals(Errno.EINVAL, e.error(), "fork_init fails only for memory registered before it: " + e);
            expected = Set.of(ForkStatus.DISABLED, ForkStatus.UNNEEDED);
        }
        ForkStatus status = provider.forkStatus();
        assertTrue(expected.contains(status), "is_fork_initialized after fork_init: " + status + ", expected one of " + expected);
    }
}
