package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.io.IOException;

/**
 * Read, Write, Flush and Write Zeroes. Every range is checked against the namespace before
 * any data moves: a range past the end is LBA Out of Range and nothing is transferred.
 */
final class IoCommands {
    private static final int NSID_ALL = 0xffffffff;
    /** CDW12 bit 30: the write is durable before it completes (the host sends it when the cache is volatile). */
    private static final int FORCE_UNIT_ACCESS = 1 << 30;

    private IoCommands() {
    }

    static int prepare(TargetQueue queue, CommandSlot slot) {
        Sqe sqe = slot.sqe;
        int opcode = sqe.opcode();
        if (opcode != Opcodes.IO_READ && opcode != Opcodes.IO_WRITE && opcode != Opcodes.IO_FLUSH
                && opcode != Opcodes.IO_WRITE_ZEROES) {
            return NvmeStatus.INVALID_OPCODE | NvmeStatus.DNR;
        }
        Subsystem subsystem = queue.controller.subsystem;
        if (opcode == Opcodes.IO_FLUSH && sqe.nsid() == NSID_ALL) {
            return NvmeStatus.SUCCESS;
        }
        Namespace ns = subsystem.namespace(sqe.nsid());
        if (ns == null) {
            return NvmeStatus.INVALID_NAMESPACE | NvmeStatus.DNR;
        }
        if (opcode == Opcodes.IO_FLUSH) {
            return NvmeStatus.SUCCESS;
        }
        long start = sqe.startLba();
        long blocks = sqe.blockCount();
        if (start < 0 || start > ns.blockCount() || blocks > ns.blockCount() - start) {
            return NvmeStatus.LBA_RANGE | NvmeStatus.DNR;
        }
        if (opcode == Opcodes.IO_WRITE_ZEROES) {
            slot.direction = CommandSlot.NO_DATA;
            return NvmeStatus.SUCCESS;
        }
        long bytes = blocks << ns.blockShift();
        if (bytes > queue.target.options().maxTransferBytes()) {
            return NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
        }
        slot.length = (int) bytes;
        return NvmeStatus.SUCCESS;
    }

    static boolean execute(TargetQueue queue, CommandSlot slot) {
        Sqe sqe = slot.sqe;
        Subsystem subsystem = queue.controller.subsystem;
        slot.status = NvmeStatus.SUCCESS;
        slot.result = 0;
        try {
            if (sqe.opcode() == Opcodes.IO_FLUSH && sqe.nsid() == NSID_ALL) {
                for (Namespace ns : subsystem.namespaces()) {
                    ns.flush();
                }
                return true;
            }
            Namespace ns = subsystem.namespace(sqe.nsid());
            long byteOffset = sqe.startLba() << ns.blockShift();
            switch (sqe.opcode()) {
                case Opcodes.IO_READ -> ns.read(byteOffset, slot.data, 0, slot.length);
                case Opcodes.IO_WRITE -> ns.write(byteOffset, slot.data, 0, slot.length);
                case Opcodes.IO_WRITE_ZEROES -> ns.writeZeroes(byteOffset, (long) sqe.blockCount() << ns.blockShift());
                default -> ns.flush();
            }
            if (sqe.opcode() != Opcodes.IO_READ && (sqe.cdw(12) & FORCE_UNIT_ACCESS) != 0) {
                ns.flush();
            }
        } catch (IOException e) {
            slot.status = NvmeStatus.INTERNAL;
        }
        return true;
    }
}
