package dev.verbs4j.conformance.memwindow;

import dev.verbs4j.DeviceCapability;
import dev.verbs4j.Errno;
import dev.verbs4j.MemoryWindow;
import dev.verbs4j.MwType;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.DeviceSide;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Window types are not interchangeable: {@code ibv_bind_mw} binds type 1 windows only,
 * and {@code ibv_alloc_mw} refuses a type the device does not offer, both with EINVAL
 * (pyverbs' {@code test_reg_mw_wrong_type}).
 */
@ConformanceSuite
class WindowTypeTest {

    @Test
    void bindVerbRejectsType2Window(Testbed bed) {
        Windows.requireType2(bed);
        RcPair pair = bed.rcPair();
        Buffer region = Windows.bindableRegion(bed, pair);
        MemoryWindow mw = bed.window(pair.remote().pd(), MwType.TYPE_2);

        Expect.errno(Errno.EINVAL, () -> mw.bind(pair.remote().qp(), 541, true, region.region(), region.remoteAddress(0), 4096,
                Windows.remoteWrite()), "ibv_bind_mw on a type 2 window");
    }

    @Test
    void allocatingWindowTypeTheDeviceLacksFailsWithEinval(Testbed bed) {
        DeviceSide side = bed.remote();
        boolean type1 = side.attributes().has(DeviceCapability.MEM_WINDOW);
        boolean type2 = side.attributes().has(DeviceCapability.MEM_WINDOW_TYPE_2A)
                || side.attributes().has(DeviceCapability.MEM_WINDOW_TYPE_2B);
        Assumptions.assumeFalse(type1 && type2, () -> side + " offers both window types MwType can name, so no unsupported"
                + " type can be requested (a type 3 request is not expressible through the API)");
        MwType lacking = type1 ? MwType.TYPE_2 : MwType.TYPE_1;
        // A device with windows of the other type refuses this one as an invalid argument; one
        // with no windows at all (siw) has no ibv_alloc_mw, which libibverbs reports as such.
        Errno expected = type1 || type2 ? Errno.EINVAL : Errno.EOPNOTSUPP;

        Expect.errno(expected, () -> bed.window(bed.pd(side), lacking), "ibv_alloc_mw of " + lacking + " on " + side);
    }
}
