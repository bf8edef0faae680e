package dev.verbs4j.softroce;

import dev.verbs4j.Access;
import dev.verbs4j.MemoryRegion;
import dev.verbs4j.ReceiveWorkRequest;
import dev.verbs4j.SendWorkRequest;
import dev.verbs4j.WcStatus;
import dev.verbs4j.softroce.engine.Counters;
import dev.verbs4j.softroce.monitor.DeviceMBeans;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.EnumSet;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A soft device's counters and its queue pairs' read through the platform MBean server. */
class CountersOverJmxTest {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    void trafficShowsInTheDeviceAndQueuePairMBeansWhichGoWithTheDevice() throws Exception {
        SimulatedPair sim = new SimulatedPair(5, "jmx-a", "jmx-b", UnaryOperator.identity());
        ObjectName deviceA = DeviceMBeans.deviceName("jmx-a");
        ObjectName deviceB = DeviceMBeans.deviceName("jmx-b");
        ObjectName qpA;
        try (RcPair pair = sim.connect(1 << 16, 8, 8)) {
            qpA = DeviceMBeans.queuePairName("jmx-a", pair.a.qp.qpn());
            assertTrue(server.isRegistered(qpA), qpA + " registered");
            pair.b.qp.postRecv(new ReceiveWorkRequest().wrId(1).buffer(pair.b.mr, 0, 4096));
            pair.a.qp.postSend(new SendWorkRequest().wrId(2).signaled(true).buffer(pair.a.mr, 0, 2000).send());
            assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 10_000).status());
            assertEquals(WcStatus.SUCCESS, pair.await(pair.b.cq, 10_000).status());
            // A write beyond the region: the responder answers with a remote access NAK.
            pair.a.qp.postSend(new SendWorkRequest().wrId(3).signaled(true).buffer(pair.a.mr, 0, 64)
                    .rdmaWrite(pair.b.mr.address() + (1 << 16), pair.b.mr.rkey()));
            assertEquals(WcStatus.REM_ACCESS_ERR, pair.await(pair.a.cq, 10_000).status());

            long packetsOut = (Long) server.getAttribute(deviceA, "packets_out");
            assertTrue(packetsOut >= 2, "packets_out " + packetsOut);
            assertEquals(sim.deviceA.engine().counters().get(Counters.PACKETS_OUT), packetsOut);
            assertEquals(sim.deviceB.engine().counters().get(Counters.PACKETS_IN), (Long) server.getAttribute(deviceB, "packets_in"));
            assertEquals(2L, server.getAttribute(qpA, "packets_out")); // one SEND, one WRITE
            assertEquals(1L, server.getAttribute(qpA, "naks_received"));
            assertEquals(1L, server.getAttribute(qpA, "naks_received_remote_access_error"));
            assertEquals(0L, server.getAttribute(qpA, "naks_received_psn_sequence_error"));
            assertEquals(1L, server.getAttribute(DeviceMBeans.queuePairName("jmx-b", pair.b.qp.qpn()),
                    "naks_sent_remote_access_error"));
            assertEquals(0L, server.getAttribute(deviceB, DeviceMBeans.ODP_FAULTS));
        }
        assertFalse(server.isRegistered(deviceA), "the device MBean goes when the device's last context closes");
        assertFalse(server.isRegistered(qpA));
        assertTrue(server.queryNames(new ObjectName(DeviceMBeans.DOMAIN + ":*"), null).stream()
                .noneMatch(n -> n.toString().contains("jmx-")), "no MBean of the closed devices is left");
    }

    @Test
    void onDemandPagingFaultsAreCountedOnTheDevice() throws Exception {
        SimulatedPair sim = new SimulatedPair(6, "jmx-odp-a", "jmx-odp-b", UnaryOperator.identity());
        try (RcPair pair = sim.connect(1 << 16, 8, 8); Arena arena = Arena.ofShared()) {
            MemorySegment memory = arena.allocate(1 << 16, 4096);
            MemoryRegion odp = pair.b.pd.registerMemory(memory, EnumSet.of(Access.ON_DEMAND, Access.LOCAL_WRITE,
                    Access.REMOTE_WRITE));
            pair.a.qp.postSend(new SendWorkRequest().wrId(1).signaled(true).buffer(pair.a.mr, 0, 3 * 4096)
                    .rdmaWrite(odp.address(), odp.rkey()));
            assertEquals(WcStatus.SUCCESS, pair.await(pair.a.cq, 10_000).status());
            assertEquals(3L, server.getAttribute(DeviceMBeans.deviceName("jmx-odp-b"), DeviceMBeans.ODP_FAULTS));
            odp.close();
        }
    }
}
