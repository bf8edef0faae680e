package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Sqe;

/**
 * Which commands a queue takes, and in which state: Connect first and only once; then, on
 * the admin queue, fabrics and admin commands, on an I/O queue, NVM commands, all but the
 * Property commands only while the controller is ready (CSTS.RDY).
 */
final class CommandSet {
    private CommandSet() {
    }

    /** Checks the command and sets the slot's direction and length; returns the status that ends it, or success. */
    static int prepare(TargetQueue queue, CommandSlot slot) {
        Sqe sqe = slot.sqe;
        if (sqe.opcode() == Opcodes.FABRICS) {
            slot.direction = CommandSlot.directionOf(sqe.fctype());
            return FabricsCommands.prepare(queue, slot);
        }
        slot.direction = CommandSlot.directionOf(sqe.opcode());
        if (!queue.connected) {
            return NvmeStatus.COMMAND_SEQUENCE_ERROR | NvmeStatus.DNR;
        }
        if (!queue.controller.ready()) {
            return NvmeStatus.COMMAND_SEQUENCE_ERROR | NvmeStatus.DNR;
        }
        return queue.qid == 0 ? AdminCommands.prepare(queue, slot) : IoCommands.prepare(queue, slot);
    }

    /**
     * Executes a prepared command whose data, if it sends any, is in the slot. Returns false
     * when the command is held without a response (Asynchronous Event Request).
     */
    static boolean execute(TargetQueue queue, CommandSlot slot) {
        Sqe sqe = slot.sqe;
        if (sqe.opcode() == Opcodes.FABRICS) {
            FabricsCommands.execute(queue, slot);
            return true;
        }
        return queue.qid == 0 ? AdminCommands.execute(queue, slot) : IoCommands.execute(queue, slot);
    }
}
