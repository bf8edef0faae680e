package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.nvmeof.wire.Connect;
import dev.verbs4j.nvmeof.wire.IdentifyController;
import dev.verbs4j.nvmeof.wire.Le;
import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Properties;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Connect, Property Get and Property Set. */
final class FabricsCommands {
    /** CAP.TO: how long a host waits for CSTS.RDY, in 500 ms units; this controller is ready at once. */
    private static final int READY_TIMEOUT_HALF_SECONDS = 15;

    private FabricsCommands() {
    }

    static int prepare(TargetQueue queue, CommandSlot slot) {
        int fctype = slot.sqe.fctype();
        if (fctype == Opcodes.FCTYPE_CONNECT) {
            if (queue.connected) {
                return NvmeStatus.COMMAND_SEQUENCE_ERROR | NvmeStatus.DNR;
            }
            slot.length = Connect.DATA_BYTES;
            return NvmeStatus.SUCCESS;
        }
        if (!queue.connected) {
            return NvmeStatus.COMMAND_SEQUENCE_ERROR | NvmeStatus.DNR;
        }
        if (queue.qid != 0 || (fctype != Opcodes.FCTYPE_PROPERTY_GET && fctype != Opcodes.FCTYPE_PROPERTY_SET)) {
            return NvmeStatus.INVALID_OPCODE | NvmeStatus.DNR;
        }
        return NvmeStatus.SUCCESS;
    }

    static void execute(TargetQueue queue, CommandSlot slot) {
        switch (slot.sqe.fctype()) {
            case Opcodes.FCTYPE_CONNECT -> connect(queue, slot);
            case Opcodes.FCTYPE_PROPERTY_GET -> propertyGet(queue.controller, slot);
            default -> propertySet(queue.controller, slot);
        }
    }

    private static void connect(TargetQueue queue, CommandSlot slot) {
        MemorySegment command = slot.command;
        MemorySegment data = slot.data.segment();
        if (Connect.recfmt(command) != 0) {
            fail(slot, NvmeStatus.CONNECT_INCOMPATIBLE_FORMAT, Connect.invalidCommandField(Connect.RECFMT));
            return;
        }
        int qid = Connect.qid(command);
        int sqsize = Connect.sqsize(command);
        if (qid != queue.qid) {
            fail(slot, NvmeStatus.CONNECT_INVALID_PARAMETERS, Connect.invalidCommandField(Connect.QID));
            return;
        }
        if (sqsize == 0 || sqsize + 1 > queue.depth) {
            fail(slot, NvmeStatus.CONNECT_INVALID_PARAMETERS, Connect.invalidCommandField(Connect.SQSIZE));
            return;
        }
        String subnqn = Le.ascii(data, Connect.DATA_SUBNQN, Connect.NQN_BYTES);
        String hostnqn = Le.ascii(data, Connect.DATA_HOSTNQN, Connect.NQN_BYTES);
        int cntlid = Le.u16(data, Connect.DATA_CNTLID);
        Target target = queue.target;
        Controller controller;
        if (qid == 0) {
            if (cntlid != Connect.CNTLID_DYNAMIC) {
                fail(slot, NvmeStatus.CONNECT_INVALID_PARAMETERS, Connect.invalidDataField(Connect.DATA_CNTLID));
                return;
            }
            Subsystem subsystem = target.subsystem(subnqn);
            if (subsystem == null && !target.isDiscovery(subnqn)) {
                fail(slot, NvmeStatus.CONNECT_INVALID_PARAMETERS, Connect.invalidDataField(Connect.DATA_SUBNQN));
                return;
            }
            if (subsystem != null && !subsystem.allows(hostnqn)) {
                fail(slot, NvmeStatus.CONNECT_INVALID_HOST, Connect.invalidDataField(Connect.DATA_HOSTNQN));
                return;
            }
            byte[] hostId = data.asSlice(Connect.DATA_HOSTID, 16).toArray(ValueLayout.JAVA_BYTE);
            controller = target.createController(subsystem, hostnqn, hostId);
            if (controller == null) {
                fail(slot, NvmeStatus.CONNECT_CONTROLLER_BUSY, 0);
                return;
            }
            controller.keepAliveMs = Connect.kato(command);
            controller.keepAlive(target.nowNs());
        } else {
            controller = target.controller(cntlid);
            if (controller == null) {
                fail(slot, NvmeStatus.CONNECT_INVALID_PARAMETERS, Connect.invalidDataField(Connect.DATA_CNTLID));
                return;
            }
            String expectedSubnqn = controller.discovery() ? null : controller.subsystem.nqn();
            if (!subnqn.equals(expectedSubnqn)) {
                fail(slot, NvmeStatus.CONNECT_INVALID_PARAMETERS, Connect.invalidDataField(Connect.DATA_SUBNQN));
                return;
            }
            if (!hostnqn.equals(controller.hostNqn)) {
                fail(slot, NvmeStatus.CONNECT_INVALID_HOST, Connect.invalidDataField(Connect.DATA_HOSTNQN));
                return;
            }
            if (qid > controller.grantedIoQueues) {
                fail(slot, NvmeStatus.CONNECT_INVALID_PARAMETERS, Connect.invalidCommandField(Connect.QID));
                return;
            }
            if (controller.queues[qid] != null) {
                // The queue exists already: a Connect out of sequence, as the Linux target answers it.
                fail(slot, NvmeStatus.COMMAND_SEQUENCE_ERROR, Connect.invalidCommandField(Connect.QID));
                return;
            }
        }
        controller.queues[qid] = queue;
        queue.controller = controller;
        queue.connected = true;
        slot.status = NvmeStatus.SUCCESS;
        slot.result = controller.cntlid;
    }

    private static void fail(CommandSlot slot, int status, long result) {
        slot.status = status | NvmeStatus.DNR;
        slot.result = result;
    }

    private static void propertyGet(Controller controller, CommandSlot slot) {
        int offset = Le.u32(slot.command, Properties.OFFSET);
        boolean eightBytes = (Le.u8(slot.command, Properties.ATTRIB) & 7) == 1;
        boolean known = switch (offset) {
            case Properties.CAP -> eightBytes;
            case Properties.VS, Properties.CC, Properties.CSTS -> !eightBytes;
            default -> false;
        };
        if (!known) {
            fail(slot, NvmeStatus.INVALID_FIELD, 0);
            return;
        }
        slot.status = NvmeStatus.SUCCESS;
        slot.result = switch (offset) {
            case Properties.CAP -> Properties.capabilities(controller.maxQueueEntries, READY_TIMEOUT_HALF_SECONDS);
            case Properties.VS -> IdentifyController.VERSION_1_3;
            case Properties.CC -> controller.cc & 0xffffffffL;
            default -> controller.csts & 0xffffffffL;
        };
    }

    private static void propertySet(Controller controller, CommandSlot slot) {
        int offset = Le.u32(slot.command, Properties.OFFSET);
        boolean eightBytes = (Le.u8(slot.command, Properties.ATTRIB) & 7) == 1;
        if (offset != Properties.CC || eightBytes) {
            fail(slot, NvmeStatus.INVALID_FIELD, 0);
            return;
        }
        controller.writeCc((int) Le.u64(slot.command, Properties.VALUE));
        slot.status = NvmeStatus.SUCCESS;
    }
}
