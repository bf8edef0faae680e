package dev.verbs4j.conformance.base;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Protection domains ({@code ibv_alloc_pd}, {@code ibv_dealloc_pd}): many can live at once
 * and be freed in any order, and closing one twice does nothing the second time.
 */
@ConformanceSuite
class ProtectionDomainTest {
    private static final int DOMAINS = 64;

    @Test
    void manyDomainsAllocateAndCloseInAnyOrder(Testbed bed) {
        DeviceContext ctx = bed.local().context();
        List<ProtectionDomain> domains = new ArrayList<>();
        for (int i = 0; i < DOMAINS; i++) {
            ProtectionDomain pd = bed.track(ctx.allocatePd());
            assertSame(ctx, pd.context(), "the domain's context");
            domains.add(pd);
        }
        for (int i = 0; i < DOMAINS; i += 2) {
            assertDoesNotThrow(domains.get(i)::close, "dealloc_pd of domain " + i);
        }
        for (int i = DOMAINS - 1; i > 0; i -= 2) {
            assertDoesNotThrow(domains.get(i)::close, "dealloc_pd of domain " + i);
        }
        for (int i = 0; i < DOMAINS; i++) {
            assertDoesNotThrow(() -> ctx.allocatePd().close(), "alloc_pd then dealloc_pd, round " + i);
        }
    }

    @Test
    void closingADomainTwiceDoesNothingTheSecondTime(Testbed bed) {
        ProtectionDomain pd = bed.track(bed.local().context().allocatePd());

        pd.close();
        assertDoesNotThrow(pd::close, "a second close of a deallocated domain");
    }
}
