package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.AtomicCapability;
import dev.verbs4j.Errno;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code send_ops_flags} a queue pair is created with. */
class QpFactoryTest {

    @Test
    void everyOperationHasItsLibibverbsBit() {
        for (WrOpcode op : WrOpcode.values()) {
            assertEquals(op.sendOpsFlag(), QpFactory.sendOpsFlag(op), op.name());
        }
        assertEquals(IbverbsConstants.IBV_QP_EX_WITH_FLUSH, QpFactory.sendOpsFlag(WrOpcode.FLUSH));
        assertEquals(IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_WRITE, QpFactory.sendOpsFlag(WrOpcode.ATOMIC_WRITE));
    }

    @Test
    void defaultRcOperationsAreTheQpInitAttributesFlags() {
        QpInitAttributes attributes = new QpInitAttributes(QpType.RC, new FakeCompletionQueue());
        long flags = QpFactory.sendOpsFlags(attributes.operations(), false);
        assertEquals(attributes.sendOpsFlags(), flags);
        assertEquals(IbverbsConstants.IBV_QP_EX_WITH_RDMA_WRITE | IbverbsConstants.IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM
                | IbverbsConstants.IBV_QP_EX_WITH_SEND | IbverbsConstants.IBV_QP_EX_WITH_SEND_WITH_IMM
                | IbverbsConstants.IBV_QP_EX_WITH_RDMA_READ | IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP
                | IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IbverbsConstants.IBV_QP_EX_WITH_LOCAL_INV
                | IbverbsConstants.IBV_QP_EX_WITH_BIND_MW | IbverbsConstants.IBV_QP_EX_WITH_SEND_WITH_INV, flags);
    }

    @Test
    void defaultsTheDeviceLacksAreLeftOutAndWhatWasAskedForIsKept() {
        QpInitAttributes defaults = new QpInitAttributes(QpType.RC, new FakeCompletionQueue());
        Set<WrOpcode> siw = QpFactory.operationsTheDeviceCanDo(defaults.operations(), defaults.requiredOperations(),
                AtomicCapability.NONE, 0);
        assertEquals(EnumSet.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.SEND_WITH_INV, WrOpcode.RDMA_WRITE,
                WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.RDMA_READ, WrOpcode.LOCAL_INV), siw,
                "no atomics and no window binds where the device reports none");
        assertEquals(defaults.operations(), QpFactory.operationsTheDeviceCanDo(defaults.operations(),
                defaults.requiredOperations(), AtomicCapability.HCA, 16), "a device with both keeps every default");

        QpInitAttributes asked = new QpInitAttributes(QpType.RC, new FakeCompletionQueue())
                .allow(WrOpcode.ATOMIC_FETCH_AND_ADD);
        assertTrue(QpFactory.operationsTheDeviceCanDo(asked.operations(), asked.requiredOperations(),
                AtomicCapability.NONE, 0).contains(WrOpcode.ATOMIC_FETCH_AND_ADD),
                "an operation asked for stays, so that the creation fails where the device lacks it");
    }

    @Test
    void flushIsAskedForOnlyWhenTheRuntimeLibibverbsHasIt() {
        Set<WrOpcode> ops = EnumSet.of(WrOpcode.SEND, WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE);
        assertEquals(IbverbsConstants.IBV_QP_EX_WITH_SEND | IbverbsConstants.IBV_QP_EX_WITH_FLUSH
                | IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_WRITE, QpFactory.sendOpsFlags(ops, true));
        VerbsException e = assertThrows(VerbsException.class, () -> QpFactory.sendOpsFlags(ops, false));
        assertEquals(Errno.EOPNOTSUPP, e.error());
        assertTrue(e.getMessage().startsWith("RDMA FLUSH needs libibverbs of rdma-core 45 or later"), e.getMessage());
        assertEquals(IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_WRITE,
                QpFactory.sendOpsFlags(EnumSet.of(WrOpcode.ATOMIC_WRITE), false), "ATOMIC WRITE is in rdma-core 44");
    }

    @Test
    void fastRegistrationCannotBeAskedFor() {
        VerbsException e = assertThrows(VerbsException.class,
                () -> QpFactory.sendOpsFlags(EnumSet.of(WrOpcode.SEND, WrOpcode.REG_MR), true));
        assertEquals(Errno.EOPNOTSUPP, e.error());
    }

    @Test
    void queuePairTypesAreLibibverbsNumbers() {
        assertEquals(IbverbsConstants.IBV_QPT_RC, QpFactory.qpType(QpType.RC));
        assertEquals(IbverbsConstants.IBV_QPT_UC, QpFactory.qpType(QpType.UC));
        assertEquals(IbverbsConstants.IBV_QPT_UD, QpFactory.qpType(QpType.UD));
    }

    /** A stand-in queue, only to build {@link QpInitAttributes}. */
    private static final class FakeCompletionQueue implements dev.verbs4j.CompletionQueue {
        @Override
        public int capacity() {
            return 1;
        }

        @Override
        public dev.verbs4j.CompletionChannel channel() {
            return null;
        }

        @Override
        public int poll(dev.verbs4j.WorkCompletion[] out, int max) {
            return 0;
        }

        @Override
        public void resize(int minEntries) {
        }

        @Override
        public void requestNotify(boolean solicitedOnly) {
        }

        @Override
        public void close() {
        }
    }
}
