package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.nvmeof.wire.IdentifyController;
import dev.verbs4j.nvmeof.wire.IdentifyNamespace;
import dev.verbs4j.nvmeof.wire.Le;
import dev.verbs4j.nvmeof.wire.NvmeStatus;
import dev.verbs4j.nvmeof.wire.Opcodes;
import dev.verbs4j.nvmeof.wire.Sqe;

import java.lang.foreign.MemorySegment;

/**
 * The admin commands a fabrics controller needs: Identify (controller, namespace, active
 * namespace list, namespace descriptors), Get Log Page (the discovery log; empty error,
 * SMART and firmware logs), Get and Set Features (number of queues, keep-alive timer, async
 * event configuration), Keep Alive and Asynchronous Event Request.
 */
final class AdminCommands {
    private static final int IDENTIFY_BYTES = 4096;
    private static final int NSID_ALL = 0xffffffff;

    private AdminCommands() {
    }

    static int prepare(TargetQueue queue, CommandSlot slot) {
        Sqe sqe = slot.sqe;
        Controller controller = queue.controller;
        switch (sqe.opcode()) {
            case Opcodes.ADMIN_IDENTIFY -> {
                int cns = sqe.cdw(10) & 0xff;
                if (controller.discovery() ? cns != Opcodes.CNS_CONTROLLER : cns > Opcodes.CNS_NAMESPACE_DESCRIPTORS) {
                    return NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
                }
                if ((cns == Opcodes.CNS_NAMESPACE || cns == Opcodes.CNS_NAMESPACE_DESCRIPTORS)
                        && controller.subsystem.namespace(sqe.nsid()) == null) {
                    return NvmeStatus.INVALID_NAMESPACE | NvmeStatus.DNR;
                }
                slot.length = IDENTIFY_BYTES;
                return NvmeStatus.SUCCESS;
            }
            case Opcodes.ADMIN_GET_LOG_PAGE -> {
                long dwords = (((long) sqe.cdw(11) & 0xffff) << 16 | (sqe.cdw(10) >>> 16)) + 1;
                if (dwords * 4 > slot.data.segment().byteSize()) {
                    return NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
                }
                slot.length = (int) (dwords * 4);
                return NvmeStatus.SUCCESS;
            }
            case Opcodes.ADMIN_SET_FEATURES, Opcodes.ADMIN_GET_FEATURES, Opcodes.ADMIN_KEEP_ALIVE,
                 Opcodes.ADMIN_ASYNC_EVENT_REQUEST -> {
                slot.direction = CommandSlot.NO_DATA;
                return NvmeStatus.SUCCESS;
            }
            default -> {
                return NvmeStatus.INVALID_OPCODE | NvmeStatus.DNR;
            }
        }
    }

    static boolean execute(TargetQueue queue, CommandSlot slot) {
        Controller controller = queue.controller;
        slot.status = NvmeStatus.SUCCESS;
        slot.result = 0;
        switch (slot.sqe.opcode()) {
            case Opcodes.ADMIN_IDENTIFY -> identify(queue, slot);
            case Opcodes.ADMIN_GET_LOG_PAGE -> getLogPage(queue, slot);
            case Opcodes.ADMIN_SET_FEATURES -> setFeatures(queue, slot);
            case Opcodes.ADMIN_GET_FEATURES -> getFeatures(controller, slot);
            case Opcodes.ADMIN_KEEP_ALIVE -> controller.keepAlive(queue.target.nowNs());
            default -> {
                if (controller.pendingAsyncEventCount == controller.pendingAsyncEvents.length) {
                    slot.status = NvmeStatus.ASYNC_LIMIT | NvmeStatus.DNR;
                    return true;
                }
                // Held until an event happens; this controller reports none, so none is answered.
                controller.pendingAsyncEvents[controller.pendingAsyncEventCount++] = slot.sqe.commandId();
                return false;
            }
        }
        return true;
    }

    private static void identify(TargetQueue queue, CommandSlot slot) {
        Controller controller = queue.controller;
        Target target = queue.target;
        TargetOptions options = target.options();
        MemorySegment out = slot.data.segment();
        int cns = slot.sqe.cdw(10) & 0xff;
        switch (cns) {
            case Opcodes.CNS_CONTROLLER -> {
                Subsystem s = controller.subsystem;
                boolean volatileCache = false;
                if (s != null) {
                    for (Namespace ns : s.namespaces()) {
                        volatileCache |= ns.volatileCache();
                    }
                }
                IdentifyController.write(out, 0, new IdentifyController.Fields(controller.cntlid,
                        s == null ? "discovery" : s.serial(), "verbs4j NVMe-oF target", "0.1",
                        s == null ? target.discoveryNqn() : s.nqn(), s == null,
                        s == null ? 0 : s.namespaces().size(), options.maxQueueEntries(), options.maxTransferShift(),
                        options.keepAliveUnits(), options.inCapsuleDataBytes(), volatileCache));
            }
            case Opcodes.CNS_NAMESPACE -> {
                Namespace ns = controller.subsystem.namespace(slot.sqe.nsid());
                IdentifyNamespace.write(out, 0, ns.blockCount(), ns.blockShift(), ns.nguid());
            }
            case Opcodes.CNS_ACTIVE_NAMESPACES -> {
                out.asSlice(0, IDENTIFY_BYTES).fill((byte) 0);
                int after = slot.sqe.nsid();
                int count = controller.subsystem.namespaces().size();
                int written = 0;
                if (after != NSID_ALL && after != -2) {
                    // NSIDs are unsigned: past the last namespace (0x7FFFFFFF and up too) the list is empty.
                    int first = Integer.compareUnsigned(after, count) < 0 ? after + 1 : count + 1;
                    for (int nsid = first; nsid <= count && written < IDENTIFY_BYTES / 4; nsid++) {
                        Le.u32(out, written * 4L, nsid);
                        written++;
                    }
                } else {
                    slot.status = NvmeStatus.INVALID_NAMESPACE | NvmeStatus.DNR;
                }
            }
            default -> {
                Namespace ns = controller.subsystem.namespace(slot.sqe.nsid());
                IdentifyNamespace.writeDescriptors(out, 0, Nguid.of(ns.uuid()), ns.nguid());
            }
        }
    }

    private static void getLogPage(TargetQueue queue, CommandSlot slot) {
        Sqe sqe = slot.sqe;
        int lid = sqe.cdw(10) & 0xff;
        long offset = (sqe.cdw(12) & 0xffffffffL) | (long) sqe.cdw(13) << 32;
        MemorySegment out = slot.data.segment().asSlice(0, slot.length);
        Controller controller = queue.controller;
        if (controller.discovery() && lid == Opcodes.LOG_DISCOVERY) {
            MemorySegment log = queue.target.discoveryLog(controller.hostNqn, queue.id.localAddress());
            out.fill((byte) 0);
            // The offset is unsigned and may name any byte; past the end the page reads as zeroes.
            if (Long.compareUnsigned(offset, log.byteSize()) < 0) {
                long n = Math.min(slot.length, log.byteSize() - offset);
                MemorySegment.copy(log, offset, out, 0, n);
            }
        } else if (!controller.discovery()
                && (lid == Opcodes.LOG_ERROR || lid == Opcodes.LOG_SMART || lid == Opcodes.LOG_FIRMWARE_SLOT)) {
            // Nothing to report: no errors kept, no health figures, one firmware slot without a name.
            out.fill((byte) 0);
        } else {
            slot.status = NvmeStatus.INVALID_LOG_PAGE | NvmeStatus.DNR;
        }
    }

    private static void setFeatures(TargetQueue queue, CommandSlot slot) {
        Controller controller = queue.controller;
        int fid = slot.sqe.cdw(10) & 0xff;
        int value = slot.sqe.cdw(11);
        switch (fid) {
            case Opcodes.FEATURE_NUMBER_OF_QUEUES -> {
                int submission = value & 0xffff;
                int completion = value >>> 16;
                if (controller.discovery() || submission == 0xffff || completion == 0xffff) {
                    slot.status = NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
                    return;
                }
                int limit = controller.queues.length - 1;
                controller.grantedIoQueues = Math.min(limit, Math.min(submission, completion) + 1);
                slot.result = numberOfQueues(controller);
            }
            case Opcodes.FEATURE_KEEP_ALIVE_TIMER -> {
                controller.keepAliveMs = value & 0xffffffffL;
                controller.keepAlive(queue.target.nowNs());
            }
            case Opcodes.FEATURE_ASYNC_EVENT_CONFIG -> controller.asyncEventConfig = value;
            default -> slot.status = NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
        }
    }

    private static void getFeatures(Controller controller, CommandSlot slot) {
        int fid = slot.sqe.cdw(10) & 0xff;
        switch (fid) {
            case Opcodes.FEATURE_NUMBER_OF_QUEUES -> slot.result = numberOfQueues(controller);
            case Opcodes.FEATURE_KEEP_ALIVE_TIMER -> slot.result = controller.keepAliveMs;
            case Opcodes.FEATURE_ASYNC_EVENT_CONFIG -> slot.result = controller.asyncEventConfig & 0xffffffffL;
            default -> slot.status = NvmeStatus.INVALID_FIELD | NvmeStatus.DNR;
        }
    }

    /** Both counts, 0's based: submission queues in bits 15:0, completion queues in 31:16. */
    private static long numberOfQueues(Controller controller) {
        long granted = controller.grantedIoQueues - 1;
        return granted | granted << 16;
    }
}
