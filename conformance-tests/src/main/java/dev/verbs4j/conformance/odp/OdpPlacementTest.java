package dev.verbs4j.conformance.odp;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.FlushLevel;
import dev.verbs4j.FlushType;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.QpType;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.conformance.fixture.Buffer;
import dev.verbs4j.conformance.fixture.Bytes;
import dev.verbs4j.conformance.fixture.Completions;
import dev.verbs4j.conformance.fixture.ConformanceSuite;
import dev.verbs4j.conformance.fixture.Expect;
import dev.verbs4j.conformance.fixture.MappedFiles;
import dev.verbs4j.conformance.fixture.RcPair;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * FLUSH and ATOMIC WRITE into On-Demand Paging regions (IBV_ODP_SUPPORT_FLUSH and
 * IBV_ODP_SUPPORT_ATOMIC_WRITE, rdma-core 58+, kernel rxe 6.16+). Modelled on pyverbs'
 * {@code test_odp_qp_ex_rc_flush} and {@code test_odp_qp_ex_rc_atomic_write}.
 */
@ConformanceSuite
class OdpPlacementTest {

    @Test
    void flushOfOnDemandRegionCompletes(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.WRITE, OdpTransportCapability.FLUSH);
        Require.capabilities(bed, DeviceCapability.FLUSH_GLOBAL);
        Set<Access> rights = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.FLUSH_GLOBAL);
        RcPair pair = bed.rcPair(new RcSpec().allow(WrOpcode.FLUSH).qpAccess(rights));
        Set<Access> regionRights = OnDemand.rights();
        regionRights.add(Access.FLUSH_GLOBAL);
        Buffer target = bed.register(pair.remote().pd(), MappedFiles.map(bed, 8192), regionRights);
        Buffer source = pair.local().buffer(8192);
        Bytes.fill(source.memory(), 121);

        pair.local().qp().postSend(new SendWorkRequest().wrId(921).signaled(true).buffer(source.region(), 0, 8192)
                .rdmaWrite(target.remoteAddress(0), target.rkey()));
        pair.local().qp().postSend(new SendWorkRequest().wrId(922).signaled(true)
                .flush(target.remoteAddress(0), target.rkey(), 8192, FlushType.GLOBAL, FlushLevel.RANGE));

        Expect.success(WcOpcode.RDMA_WRITE, 921, Completions.next(pair.local().sendCq(), "the write"), "write into ODP");
        Expect.success(WcOpcode.FLUSH, 922, Completions.next(pair.local().sendCq(), "the flush"), "flush of ODP");
        Bytes.assertSame(source.memory(), target.memory(), "flushed bytes");
    }

    @Test
    void atomicWriteIntoOnDemandRegionLands(Testbed bed) {
        Require.onDemandPaging(bed, QpType.RC, OdpTransportCapability.ATOMIC_WRITE);
        Require.capabilities(bed, DeviceCapability.ATOMIC_WRITE);
        RcPair pair = bed.rcPair(new RcSpec().allow(WrOpcode.ATOMIC_WRITE));
        Buffer target = OnDemand.buffer(bed, pair.remote().pd(), 4096);

        pair.local().qp().postSend(new SendWorkRequest().wrId(923).signaled(true)
                .atomicWrite(target.remoteAddress(8), target.rkey(), 0x7766554433221100L));

        Expect.success(WcOpcode.ATOMIC_WRITE, 923, Completions.next(pair.local().sendCq(), "the atomic write"), "atomic write into ODP");
        assertEquals(0x7766554433221100L, target.memory().get(ValueLayout.JAVA_LONG, 8), "value in the on-demand region");
    }
}
