package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Target;
import dev.verbs4j.nvmeof.host.KeyMethod;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.IdentifyController;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectTest {
    private static final int PORT = 4420;
    private static Target target;

    @BeforeAll
    static void start() {
        target = Loopback.target(PORT, Loopback.options(PORT));
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    @Test
    void connectsAdminAndIoQueuesAndIdentifies() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT))) {
            assertEquals(2, host.grantedIoQueues());
            assertEquals(KeyMethod.FAST_REGISTER, host.keyMethod());
            assertEquals(host.cntlid(), host.identity().cntlid());
            assertEquals(Loopback.SUBSYSTEM, host.identity().subnqn());
            assertEquals(IdentifyController.CONTROLLER_TYPE_IO, host.identity().controllerType());
            assertTrue(host.identity().keyedSgls());
            assertEquals(4096, host.identity().inCapsuleDataBytes());
            assertEquals(2, host.namespaces().size());
            assertEquals(2048, host.namespaces().get(0).blocks());
            assertEquals(9, host.namespaces().get(0).blockShift());
            assertEquals(64, host.namespaces().get(1).blocks());
            assertEquals(12, host.namespaces().get(1).blockShift());
        }
    }
}
