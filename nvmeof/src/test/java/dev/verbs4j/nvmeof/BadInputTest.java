package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.host.Command;
import dev.verbs4j.nvmeof.host.HostQueue;
import dev.verbs4j.nvmeof.host.NvmeHost;
import dev.verbs4j.nvmeof.wire.CmPrivateData;
import dev.verbs4j.nvmeof.wire.Connect;
import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Sqe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each kind of bad input gets the status the NVMe and NVMe-oF specifications give it, or,
 * where no response can be delivered, ends only the offending queue; meanwhile host B's
 * writes and reads go on and still return what was written.
 */
class BadInputTest {
    private static final int PORT = 4422;
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    static final SharedTarget TARGET = new SharedTarget(PORT);
    private static NvmeHost bystander;
    private static long bystanderSeed = 1000;

    @BeforeAll
    static void start() {
        bystander = NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_B, Loopback.HOST_B_ADDRESS, PORT));
        bystanderWritesAndReads();
    }

    @AfterAll
    static void stop() {
        bystander.close();
        assertEquals(0, TARGET.target().faults(), "every bad input was answered by a check, none by an exception");
    }

    @AfterEach
    void othersAreStillServed() {
        bystanderWritesAndReads();
    }

    private static void bystanderWritesAndReads() {
        long seed = bystanderSeed++;
        MemorySegment out = bystander.allocateBuffer(8192);
        MemorySegment in = bystander.allocateBuffer(8192);
        Patterns.fill(out, seed);
        HostQueue q = bystander.ioQueue(1);
        q.execute(Command.write(1, 1024, 16, out).allowInCapsule(false), WAIT);
        q.execute(Command.read(1, 1024, 16, in), WAIT);
        assertTrue(Patterns.matches(in, seed), "host B reads back what it wrote");
    }

    private static NvmeHost hostA() {
        return NvmeHost.connect(Loopback.soft(), Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT));
    }

    private static int statusOf(HostQueue queue, Command command) {
        NvmeException e = assertThrows(NvmeException.class, () -> queue.execute(command, WAIT));
        return e.status();
    }

    @Test
    void prpInsteadOfSglIsInvalidField() {
        try (NvmeHost host = hostA()) {
            MemorySegment in = host.allocateBuffer(512);
            assertEquals(NvmeStatus.INVALID_FIELD | NvmeStatus.DNR,
                    statusOf(host.ioQueue(1), Command.read(1, 0, 1, in).flags(0)));
            host.ioQueue(1).execute(Command.read(1, 0, 1, in), WAIT);
        }
    }

    @Test
    void capsuleShorterThanACommandEndsOnlyItsQueue() {
        try (NvmeHost host = hostA()) {
            MemorySegment in = host.allocateBuffer(512);
            NvmeException e = assertThrows(NvmeException.class,
                    () -> host.ioQueue(1).execute(Command.read(1, 0, 1, in).truncateCapsule(40), WAIT));
            assertEquals(NvmeException.TRANSPORT, e.status(), "no command id to answer: the queue is dropped");
            assertTrue(host.ioQueue(1).failed());
        }
    }

    @Test
    void unknownOpcodesAreInvalidOpcode() {
        try (NvmeHost host = hostA()) {
            assertEquals(NvmeStatus.INVALID_OPCODE | NvmeStatus.DNR,
                    statusOf(host.ioQueue(1), new Command().opcode(0x7c).nsid(1)));
            assertEquals(NvmeStatus.INVALID_OPCODE | NvmeStatus.DNR,
                    statusOf(host.adminQueue(), new Command().opcode(0xc4)));
            assertEquals(NvmeStatus.INVALID_OPCODE | NvmeStatus.DNR,
                    statusOf(host.ioQueue(1), new Command().fabrics(Opcodes.FCTYPE_PROPERTY_GET)));
        }
    }

    @Test
    void sglLengthThatDisagreesWithTheBlocksIsSglDataInvalid() {
        try (NvmeHost host = hostA()) {
            MemorySegment out = host.allocateBuffer(4096);
            assertEquals(NvmeStatus.SGL_INVALID_DATA | NvmeStatus.DNR, statusOf(host.ioQueue(1),
                    Command.write(1, 0, 8, out).allowInCapsule(false).declareSglLength(2048)));
        }
    }

    @Test
    void inCapsuleDataPastTheCapsuleIsSglOffsetInvalid() {
        try (NvmeHost host = hostA()) {
            MemorySegment out = host.allocateBuffer(4096);
            assertEquals(NvmeStatus.SGL_INVALID_OFFSET | NvmeStatus.DNR, statusOf(host.ioQueue(1),
                    Command.write(1, 0, 16, out).declareSglLength(8192)));
        }
    }

    @Test
    void inCapsuleOffsetThatWrapsIsSglOffsetInvalid() {
        try (NvmeHost host = hostA()) {
            MemorySegment out = host.allocateBuffer(512);
            // Offset plus length passes 2^63: a status, not a fault that drops the queue.
            assertEquals(NvmeStatus.SGL_INVALID_OFFSET | NvmeStatus.DNR, statusOf(host.ioQueue(1),
                    Command.write(1, 0, 1, out).declareSglOffset(0x7FFF_FFFF_FFFF_FF00L)));
            host.ioQueue(1).execute(Command.write(1, 0, 1, out), WAIT);
        }
    }

    @Test
    void eitherHalfOfAFusedPairIsInvalidField() {
        try (NvmeHost host = hostA()) {
            MemorySegment out = host.allocateBuffer(512);
            MemorySegment in = host.allocateBuffer(512);
            host.ioQueue(1).execute(Command.read(1, 40, 1, in), WAIT);
            out.fill((byte) 0x6B);
            // The target takes no fused commands (FUSES 0): a second half must not run alone.
            for (int fuse = 1; fuse <= 2; fuse++) {
                assertEquals(NvmeStatus.INVALID_FIELD | NvmeStatus.DNR, statusOf(host.ioQueue(1),
                        Command.write(1, 40, 1, out).flags(Sqe.FLAGS_PSDT_SGL | fuse)), "FUSE " + fuse);
            }
            MemorySegment after = host.allocateBuffer(512);
            host.ioQueue(1).execute(Command.read(1, 40, 1, after), WAIT);
            assertEquals(-1, after.mismatch(in), "the refused write did not land");
        }
    }

    @Test
    void activeNamespacesAfterAHighNsidAreNone() {
        try (NvmeHost host = hostA()) {
            MemorySegment list = host.allocateBuffer(4096);
            for (int after : new int[] {0x7FFF_FFFF, 0xFFFF_FFFD}) {
                list.fill((byte) 0x55);
                host.admin(new Command().opcode(Opcodes.ADMIN_IDENTIFY).nsid(after).cdw(10, Opcodes.CNS_ACTIVE_NAMESPACES)
                        .data(list, false));
                assertEquals(0, list.get(ValueLayout.JAVA_INT, 0), "NSIDs above " + Integer.toUnsignedString(after));
            }
        }
    }

    @Test
    void sglReachingPastTheHostsKeyEndsOnlyThatQueue() {
        try (NvmeHost host = hostA()) {
            MemorySegment out = host.allocateBuffer(4096);
            NvmeException e = assertThrows(NvmeException.class, () -> host.ioQueue(1).execute(
                    Command.write(1, 0, 16, out).allowInCapsule(false).declareSglLength(8192), WAIT));
            assertEquals(NvmeException.TRANSPORT, e.status(),
                    "the RDMA READ past the key fails, which ends the queue pair: no status can be sent");
            // The controller and its other queues live on.
            MemorySegment in = host.allocateBuffer(512);
            host.ioQueue(2).execute(Command.read(1, 0, 1, in), WAIT);
        }
    }

    @Test
    void rangesPastTheNamespaceAreLbaOutOfRange() {
        try (NvmeHost host = hostA()) {
            MemorySegment in = host.allocateBuffer(4096);
            HostQueue q = host.ioQueue(1);
            assertEquals(NvmeStatus.LBA_RANGE | NvmeStatus.DNR, statusOf(q, Command.read(1, 2047, 8, in)));
            assertEquals(NvmeStatus.LBA_RANGE | NvmeStatus.DNR, statusOf(q, Command.read(1, -8, 8, in)));
            Command zeroes = new Command().opcode(Opcodes.IO_WRITE_ZEROES).nsid(1);
            zeroes.sqe().startLba(2040).cdw(12, 8);
            assertEquals(NvmeStatus.LBA_RANGE | NvmeStatus.DNR, statusOf(q, zeroes));
            assertEquals(NvmeStatus.INVALID_NAMESPACE | NvmeStatus.DNR, statusOf(q, Command.read(3, 0, 8, in)));
            q.execute(Command.read(1, 2040, 8, in), WAIT);
        }
    }

    @Test
    void unknownLogPagesAreInvalidLogPage() {
        try (NvmeHost host = hostA()) {
            NvmeException e = assertThrows(NvmeException.class, () -> host.getLogPage(Opcodes.LOG_DISCOVERY, 0, 1024));
            assertEquals(NvmeStatus.INVALID_LOG_PAGE | NvmeStatus.DNR, e.status(),
                    "the discovery log is the discovery controller's");
            assertEquals(NvmeStatus.INVALID_LOG_PAGE | NvmeStatus.DNR, assertThrows(NvmeException.class,
                    () -> host.getLogPage(0x7f, 0, 512)).status());
        }
    }

    @Test
    void connectToAnUnknownSubsystemIsInvalidParameterAtSubnqn() {
        NvmeException e = assertThrows(NvmeException.class, () -> NvmeHost.connect(Loopback.soft(),
                Loopback.host(Loopback.HOST_A, Loopback.HOST_A_ADDRESS, PORT).withSubsystem("nqn.2026-01.dev.verbs4j:none")));
        assertEquals(NvmeStatus.CONNECT_INVALID_PARAMETERS | NvmeStatus.DNR, e.status());
    }

    @Test
    void connectWithAHostNotAllowedIsInvalidHost() {
        NvmeException e = assertThrows(NvmeException.class, () -> NvmeHost.connect(Loopback.soft(),
                Loopback.host(Loopback.STRANGER, Loopback.HOST_A_ADDRESS, PORT)));
        assertEquals(NvmeStatus.CONNECT_INVALID_HOST | NvmeStatus.DNR, e.status());
    }

    @Test
    void moreQueuesThanGrantedAreRefused() {
        try (NvmeHost host = hostA()) {
            assertEquals(2, host.grantedIoQueues());
            NvmeException e = assertThrows(NvmeException.class, () -> host.connectIoQueue(3));
            assertEquals(NvmeStatus.CONNECT_INVALID_PARAMETERS | NvmeStatus.DNR, e.status());
            long before = TARGET.target().rejected(CmPrivateData.REJECT_INVALID_QID);
            assertThrows(NvmeException.class, () -> host.connectIoQueue(TARGET.target().options().maxIoQueues() + 1));
            assertEquals(before + 1, TARGET.target().rejected(CmPrivateData.REJECT_INVALID_QID),
                    "a qid past every controller's limit is refused at the CM with the binding's INVALID_QID");
            assertEquals(NvmeStatus.COMMAND_SEQUENCE_ERROR | NvmeStatus.DNR,
                    assertThrows(NvmeException.class, () -> host.connectIoQueue(2)).status(),
                    "a second queue 2 of the same controller");
            MemorySegment in = host.allocateBuffer(512);
            host.ioQueue(2).execute(Command.read(1, 0, 1, in), WAIT);
        }
    }

    @Test
    void connectOnAConnectedQueueIsCommandSequenceError() {
        try (NvmeHost host = hostA()) {
            MemorySegment data = host.allocateBuffer(Connect.DATA_BYTES);
            Command again = new Command().fabrics(Opcodes.FCTYPE_CONNECT).data(data, true);
            assertEquals(NvmeStatus.COMMAND_SEQUENCE_ERROR | NvmeStatus.DNR, statusOf(host.ioQueue(1), again));
        }
    }
}
