package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.ConnectionParameters;
import org.junit.jupiter.api.Test;

/** The depths of an accept, as rdma_accept computes them (the rxe VM run shows them on queue pairs). */
class AcceptDepthsTest {
    private static final DeviceLimits RXE = new DeviceLimits(128, 128);

    @Test
    void twoHundredFiftyFiveTakesThePeersRequest() {
        ConnectionParameters most = new ConnectionParameters().responderResources(255).initiatorDepth(255);
        assertEquals(new AcceptDepths(2, 8), AcceptDepths.of(most, 2, 8, RXE, true));
    }

    @Test
    void twoHundredFiftyFiveIsBoundedByTheDevice() {
        ConnectionParameters most = new ConnectionParameters().responderResources(255).initiatorDepth(255);
        assertEquals(new AcceptDepths(16, 4), AcceptDepths.of(most, 200, 9, new DeviceLimits(16, 4), true));
    }

    @Test
    void otherValuesAreTakenAsGiven() {
        ConnectionParameters given = new ConnectionParameters().responderResources(3).initiatorDepth(0);
        assertEquals(new AcceptDepths(3, 0), AcceptDepths.of(given, 100, 100, RXE, true));
    }

    @Test
    void moreThanTheDeviceAllowsIsEinval() {
        ConnectionParameters deep = new ConnectionParameters().responderResources(129);
        assertEquals(Errno.EINVAL,
                assertThrows(VerbsException.class, () -> AcceptDepths.of(deep, 1, 1, RXE, true)).error());
        ConnectionParameters wide = new ConnectionParameters().initiatorDepth(200);
        assertEquals(Errno.EINVAL,
                assertThrows(VerbsException.class, () -> AcceptDepths.of(wide, 1, 1, RXE, true)).error());
    }

    @Test
    void outsideTheTcpPortSpaceNothingIsCheckedOrClamped() {
        ConnectionParameters given = new ConnectionParameters().responderResources(255).initiatorDepth(200);
        assertEquals(new AcceptDepths(255, 200), AcceptDepths.of(given, 1, 1, null, false));
    }
}
