package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.controller.TargetOptions;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.DiscoveryLog;
import dev.verbs4j.nvmeof.wire.Le;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The discovery controller lists the subsystems each host may reach, as {@code nvme discover} reads them. */
class DiscoveryTest {
    private static final int PORT = 4423;
    @RegisterExtension
    static final SharedTarget TARGET = new SharedTarget(PORT);

    @Test
    void discoveryLogListsTheSubsystemsAHostMayReach() {
        MemorySegment log = NvmeHost.discover(Loopback.soft(), Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT));
        assertEquals(2, DiscoveryLog.records(log));
        Set<String> nqns = new HashSet<>();
        for (int i = 0; i < 2; i++) {
            nqns.add(DiscoveryLog.subnqn(log, i));
            assertEquals("127.0.0.1", DiscoveryLog.address(log, i));
            assertEquals(Integer.toString(PORT), DiscoveryLog.serviceId(log, i));
            long entry = DiscoveryLog.HEADER_BYTES + i * (long) DiscoveryLog.ENTRY_BYTES;
            assertEquals(DiscoveryLog.TRTYPE_RDMA, Le.u8(log, entry + DiscoveryLog.TRTYPE));
            assertEquals(DiscoveryLog.ADRFAM_IPV4, Le.u8(log, entry + DiscoveryLog.ADRFAM));
            assertEquals(DiscoveryLog.SUBTYPE_NVM, Le.u8(log, entry + DiscoveryLog.SUBTYPE));
            assertEquals(DiscoveryLog.CMS_RDMA_CM, Le.u8(log, entry + DiscoveryLog.TSAS + 2));
        }
        assertEquals(Set.of(Loopback.SUBSYSTEM, Loopback.OTHER_SUBSYSTEM), nqns);
    }

    /** As nvmet does for a port on INADDR_ANY: the entries name the address the host reached, which it can connect to. */
    @Test
    void aTargetOnEveryAddressListsTheAddressTheHostReached() {
        int port = PORT + 1;
        Target wildcard = Loopback.target(port, TargetOptions.defaults(new InetSocketAddress("0.0.0.0", port)));
        try {
            MemorySegment log = NvmeHost.discover(Loopback.soft(), Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, port));
            assertEquals(2, DiscoveryLog.records(log));
            for (int i = 0; i < 2; i++) {
                assertEquals("127.0.0.1", DiscoveryLog.address(log, i));
                assertEquals(Integer.toString(port), DiscoveryLog.serviceId(log, i));
            }
        } finally {
            wildcard.close();
        }
    }

    @Test
    void aHostNotAllowedSeesOnlyOpenSubsystems() {
        MemorySegment log = NvmeHost.discover(Loopback.soft(), Loopback.host(Loopback.STRANGER, Loopback.HOST_B_ADDRESS, PORT));
        assertEquals(1, DiscoveryLog.records(log));
        assertEquals(Loopback.OTHER_SUBSYSTEM, DiscoveryLog.subnqn(log, 0));
    }
}
