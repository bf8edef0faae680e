package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.nvmeof.wire.DatasetRanges;
import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Read, Write, Flush, Write Zeroes and Dataset Management. Every range is checked against the
 * namespace before any data moves: a range past the end is LBA Out of Range and nothing is
 * transferred. Dataset Management's ranges are its data, so they are all checked when they
 * have arrived, before the first is deallocated; a deallocated block reads as zeroes (DLFEAT
 * 001b), and the other attributes are hints the target may ignore.
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
                && opcode != Opcodes.IO_WRITE_ZEROES && opcode != Opcodes.IO_DATASET_MANAGEMENT) {
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
        if (opcode == Opcodes.IO_DATASET_MANAGEMENT) {
            slot.length = DatasetRanges.count(sqe.cdw(10)) * DatasetRanges.ENTRY_BYTES;
            return NvmeStatus.SUCCESS;
        }
        long start = sqe.startLba();
        long blocks = sqe.blockCount();
        if (outside(ns, start, blocks)) {
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
            if (sqe.opcode() == Opcodes.IO_DATASET_MANAGEMENT) {
                slot.status = datasetManagement(ns, slot);
                return true;
            }
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

    /** Whether {@code blocks} blocks from LBA {@code start} reach past the namespace (or start before it). */
    private static boolean outside(Namespace ns, long start, long blocks) {
        return start < 0 || start > ns.blockCount() || blocks > ns.blockCount() - start;
    }

    /** Checks every range, then deallocates them when CDW11 asks for it; returns the status. */
    private static int datasetManagement(Namespace ns, CommandSlot slot) throws IOException {
        int ranges = DatasetRanges.count(slot.sqe.cdw(10));
        MemorySegment list = slot.data.segment();
        for (int i = 0; i < ranges; i++) {
            long start = DatasetRanges.startingLba(list, i);
            long blocks = DatasetRanges.blocks(list, i);
            if (outside(ns, start, blocks)) {
                return NvmeStatus.LBA_RANGE | NvmeStatus.DNR;
            }
        }
        if ((slot.sqe.cdw(11) & DatasetRanges.ATTRIBUTE_DEALLOCATE) != 0) {
            for (int i = 0; i < ranges; i++) {
                long blocks = DatasetRanges.blocks(list, i);
                if (blocks > 0) {
                    ns.writeZeroes(DatasetRanges.startingLba(list, i) << ns.blockShift(), blocks << ns.blockShift());
                }
            }
        }
        return NvmeStatus.SUCCESS;
    }
}
