package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.host.KeyMethod;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.Completion;
import dev.verbs4j.nvmeof.wire.IdentifyController;
import dev.verbs4j.nvmeof.wire.IdentifyNamespace;
import dev.verbs4j.nvmeof.wire.Opcodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectTest {
    private static final int PORT = 4420;
    @RegisterExtension
    static final SharedTarget TARGET = new SharedTarget(PORT);

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

    /**
     * The namespace's UUID, which the Linux host shows as the disk's uuid and wwid
     * ("uuid.&lt;UUID&gt;") and matches namespaces by: a UUID descriptor, then the NGUID's.
     */
    @Test
    void namespaceDescriptorsGiveTheUuidThenTheNguid() {
        try (NvmeHost host = NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT))) {
            MemorySegment data = host.allocateBuffer(4096);
            Completion c = host.admin(new Command().opcode(Opcodes.ADMIN_IDENTIFY).nsid(1)
                    .cdw(10, Opcodes.CNS_NAMESPACE_DESCRIPTORS).data(data, false));
            assertEquals(0, c.status());
            byte[] uuid = ByteBuffer.allocate(16).putLong(Loopback.NAMESPACE_1_UUID.getMostSignificantBits())
                    .putLong(Loopback.NAMESPACE_1_UUID.getLeastSignificantBits()).array();
            assertEquals(IdentifyNamespace.NIDT_UUID, data.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(16, data.get(ValueLayout.JAVA_BYTE, 1));
            assertArrayEquals(uuid, data.asSlice(4, 16).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(IdentifyNamespace.NIDT_NGUID, data.get(ValueLayout.JAVA_BYTE, 20));
            assertEquals(16, data.get(ValueLayout.JAVA_BYTE, 21));
            assertArrayEquals(uuid, data.asSlice(24, 16).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0, data.get(ValueLayout.JAVA_BYTE, 40), "the list ends after two descriptors");
        }
    }
}
