package dev.verbs4j.softroce.engine;

import dev.verbs4j.WcStatus;
import dev.verbs4j.softroce.memory.KeyCheck;
import dev.verbs4j.softroce.memory.MemoryObject;
import dev.verbs4j.softroce.memory.Region;
import dev.verbs4j.softroce.memory.Window;

/**
 * Send queue operations that touch no wire: BIND_MW, LOCAL_INV and REG_MR. They complete
 * with the statuses the kernel rxe uses: a failed bind is {@code MW_BIND_ERR}, a failed
 * invalidation or fast registration {@code LOC_QP_OP_ERR}.
 */
final class LocalOperations {
    private LocalOperations() {
    }

    static void execute(QpEngine qp, Wqe w) {
        switch (w.opcode) {
            case LOCAL_INV -> {
                int code = qp.device.memory().invalidate(w.invalidateRkey, qp.pdHandle);
                w.status = code == KeyCheck.OK ? WcStatus.SUCCESS : WcStatus.LOC_QP_OP_ERR;
            }
            case BIND_MW -> w.status = bind(qp, w);
            case REG_MR -> w.status = fastRegister(qp, w);
            default -> w.status = WcStatus.LOC_QP_OP_ERR;
        }
    }

    /** As the kernel rxe: a fast registration that cannot be done is a local QP operation error. */
    private static WcStatus fastRegister(QpEngine qp, Wqe w) {
        if (!(w.region instanceof MemoryObjectHolder holder) || !(holder.memoryObject() instanceof Region region)) {
            return WcStatus.LOC_QP_OP_ERR;
        }
        int code = qp.device.memory().fastRegister(region, qp.pdHandle, w.pages, w.pageCount, w.pageShift, w.bindAddress,
                w.bindLength, w.accessMask, w.newKey);
        return code == KeyCheck.OK ? WcStatus.SUCCESS : WcStatus.LOC_QP_OP_ERR;
    }

    private static WcStatus bind(QpEngine qp, Wqe w) {
        if (!(w.mw instanceof MemoryObjectHolder mwHolder) || !(mwHolder.memoryObject() instanceof Window window)) {
            return WcStatus.MW_BIND_ERR;
        }
        Region region = null;
        if (w.region instanceof MemoryObjectHolder rHolder && rHolder.memoryObject() instanceof Region r) {
            region = r;
        }
        if (window.pdHandle() != qp.pdHandle) {
            return WcStatus.MW_BIND_ERR;
        }
        // IBTA 10.6.7.2.1: a type 2 window must be invalidated before it is bound again.
        if (window.type() == 2 && window.state() == MemoryObject.VALID) {
            return WcStatus.MW_BIND_ERR;
        }
        int code = qp.device.memory().bindWindow(window, region, w.bindAddress, w.bindLength, w.accessMask, w.newKey, qp.qpn);
        return code == KeyCheck.OK ? WcStatus.SUCCESS : WcStatus.MW_BIND_ERR;
    }
}
