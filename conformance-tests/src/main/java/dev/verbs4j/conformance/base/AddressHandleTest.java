package dev.verbs4j.conformance.base;

import dev.verbs4j.AddressHandle;
import dev.verbs4j.AddressHandleAttributes;
import dev.verbs4j.ProtectionDomain;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * Address handles ({@code ibv_create_ah}, {@code ibv_destroy_ah}): a global route to a port's
 * GID, from the local port's GID, is created and destroyed in a protection domain.
 */
@ConformanceSuite
class AddressHandleTest {

    @Test
    void globalAddressHandleCreatesAndCloses(Testbed bed) {
        ProtectionDomain pd = bed.pd(bed.local());
        AddressHandleAttributes route = new AddressHandleAttributes(bed.remote().gid(), bed.local().gidIndex(), DeviceSide.PORT,
                64, 0, 0, 0);

        // Address handles are mandatory on InfiniBand and RoCE; iWARP has none.
        Require.infinibandTransport(bed, "address handles, which address UD queue pairs (iWARP has RC only)");
        AddressHandle ah = bed.track(pd.createAh(route));
        assertDoesNotThrow(ah::close, "destroy_ah");
        assertDoesNotThrow(pd::close, "dealloc_pd once its address handle is destroyed");
    }
}
