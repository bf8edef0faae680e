package dev.verbs4j.ibverbs;

import dev.verbs4j.AtomicCapability;
import dev.verbs4j.CompletionQueue;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.Errno;
import dev.verbs4j.QpInitAttributes;
import dev.verbs4j.QpType;
import dev.verbs4j.VerbsException;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.IbverbsLibrary;
import dev.verbs4j.ibverbs.binding.QueuePairVerbs;
import dev.verbs4j.ibverbs.binding.ibv_qp;
import dev.verbs4j.ibverbs.binding.ibv_qp_cap;
import dev.verbs4j.ibverbs.binding.ibv_qp_ex;
import dev.verbs4j.ibverbs.binding.ibv_qp_init_attr_ex;

import java.util.Set;

/**
 * {@code ibv_create_qp_ex} with {@code IBV_QP_INIT_ATTR_SEND_OPS_FLAGS}: the operations a
 * queue pair accepts are fixed at creation, and the provider refuses the creation
 * ({@code EOPNOTSUPP}) when it cannot do one of them.
 *
 * <p>A provider without extended queue pairs (siw's, for one) refuses that creation too, and
 * refuses one for SEND alone, which tells it from a refused operation. The queue pair is then
 * created without send_ops_flags and posts through {@code ibv_post_send},
 * and the operations are checked here against what the device reports, so that an
 * operation it cannot do still fails the creation with {@code EOPNOTSUPP}: atomics against
 * {@code atomic_cap}, BIND_MW against {@code max_mw}. FLUSH and ATOMIC WRITE cannot be posted
 * that way at all.
 */
final class QpFactory {
    private QpFactory() {
    }

    static IbverbsQp create(IbverbsPd pd, QpInitAttributes a) {
        IbverbsCq sendCq = ownCq(pd, a.sendCq());
        IbverbsCq recvCq = ownCq(pd, a.recvCq());
        IbverbsSrq srq = null;
        if (a.srq() != null) {
            if (!(a.srq() instanceof IbverbsSrq s) || s.pd.context != pd.context) {
                throw new VerbsException(Errno.EINVAL, "shared receive queue belongs to another device");
            }
            srq = s;
        }
        // Hold the queues while libibverbs uses their pointers: a racing close fails with
        // EBUSY instead of freeing them under ibv_create_qp_ex.
        sendCq.retain();
        try {
            recvCq.retain();
            try {
                if (srq != null) {
                    srq.retain();
                }
                try {
                    return create(pd, a, sendCq, recvCq, srq);
                } finally {
                    if (srq != null) {
                        srq.release();
                    }
                }
            } finally {
                recvCq.release();
            }
        } finally {
            sendCq.release();
        }
    }

    private static IbverbsQp create(IbverbsPd pd, QpInitAttributes a, IbverbsCq sendCq, IbverbsCq recvCq,
                                    IbverbsSrq srq) {
        DeviceAttributes device = pd.context.queryDevice();
        Set<WrOpcode> operations = operationsTheDeviceCanDo(a.operations(), a.requiredOperations(),
                device.atomicCapability(), device.maxMw());
        long ops = sendOpsFlags(operations, IbverbsLibrary.runtimeKnowsFlush());
        try (ibv_qp_init_attr_ex init = new ibv_qp_init_attr_ex()) {
            init.qp_type(qpType(a.type()))
                    .sq_sig_all(a.signalAll() ? 1 : 0)
                    .send_cq(sendCq.handle)
                    .recv_cq(recvCq.handle)
                    .srq(srq == null ? null : srq.handle)
                    .comp_mask(IbverbsConstants.IBV_QP_INIT_ATTR_PD | IbverbsConstants.IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
                    .pd(pd.handle)
                    .send_ops_flags(ops);
            // With an SRQ the QP has no receive queue of its own.
            init.cap().max_send_wr(a.maxSendWr())
                    .max_recv_wr(srq == null ? a.maxRecvWr() : 0)
                    .max_send_sge(a.maxSendSge())
                    .max_recv_sge(srq == null ? a.maxRecvSge() : 0)
                    .max_inline_data(a.maxInlineData());
            String call = "ibv_create_qp_ex(" + a.type() + ", send_ops_flags 0x" + Long.toHexString(ops) + ")";
            ibv_qp qp = QueuePairVerbs.ibv_create_qp_ex(pd.context.handle, init);
            ibv_qp_ex extended = null;
            if (qp == null || qp.isNull()) {
                int errno = dev.verbs4j.ibverbs.binding.Errno.lastErrno();
                if (errno != Errno.EOPNOTSUPP.number()) {
                    throw NativeErrors.failure(errno, call);
                }
                // A provider with extended queue pairs refused an operation (rxe refuses LOCAL_INV
                // on UC): that refusal stands. Only one without any makes a plain queue pair.
                if (hasExtendedQueuePairs(pd.context, init)) {
                    throw NativeErrors.failure(errno, call);
                }
                refuseWithoutExtendedApi(operations, device.atomicCapability(), device.maxMw(), call);
                init.comp_mask(IbverbsConstants.IBV_QP_INIT_ATTR_PD).send_ops_flags(0);
                qp = NativeErrors.require(QueuePairVerbs.ibv_create_qp_ex(pd.context.handle, init),
                        call + ", then without send_ops_flags");
            } else {
                pd.context.extendedQueuePairs = true;
                extended = QueuePairVerbs.ibv_qp_to_qp_ex(qp);
                if (extended == null || extended.isNull()) {
                    extended = null; // created, but only the plain posting path works on it
                }
            }
            ibv_qp_cap cap = init.cap();
            QpCapacity granted = new QpCapacity(cap.max_send_wr(), cap.max_recv_wr(), cap.max_send_sge(),
                    cap.max_recv_sge(), cap.max_inline_data());
            try {
                return new IbverbsQp(pd, sendCq, recvCq, srq, a.type(), qp, extended, granted, ops);
            } catch (RuntimeException queueClosedMeanwhile) {
                QueuePairVerbs.ibv_destroy_qp(qp);
                throw queueClosedMeanwhile;
            }
        }
    }

    /**
     * Whether the provider makes extended queue pairs at all: known once one was made on the
     * context, else asked by making one of the same type for SEND alone (destroyed at once).
     */
    private static boolean hasExtendedQueuePairs(IbverbsContext context, ibv_qp_init_attr_ex init) {
        if (context.extendedQueuePairs) {
            return true;
        }
        long asked = init.send_ops_flags();
        init.send_ops_flags(IbverbsConstants.IBV_QP_EX_WITH_SEND);
        try {
            ibv_qp probe = QueuePairVerbs.ibv_create_qp_ex(context.handle, init);
            if (probe == null || probe.isNull()) {
                return false;
            }
            QueuePairVerbs.ibv_destroy_qp(probe);
            context.extendedQueuePairs = true;
            return true;
        } finally {
            init.send_ops_flags(asked);
        }
    }

    /**
     * The operations to create a queue pair for: {@code asked} less the transport defaults
     * (those not in {@code required}) that the device reports it cannot do: atomics where
     * {@code atomic_cap} is NONE, BIND_MW where {@code max_mw} is 0.
     */
    static Set<WrOpcode> operationsTheDeviceCanDo(Set<WrOpcode> asked, Set<WrOpcode> required, AtomicCapability atomics,
                                                  int maxMw) {
        java.util.EnumSet<WrOpcode> kept = java.util.EnumSet.noneOf(WrOpcode.class);
        for (WrOpcode op : asked) {
            if (lackedBecause(op, atomics, maxMw) == null || required.contains(op)) {
                kept.add(op);
            }
        }
        return kept;
    }

    /** Why the device reports it cannot do {@code op}, or null when nothing it reports says so. */
    private static String lackedBecause(WrOpcode op, AtomicCapability atomics, int maxMw) {
        return switch (op) {
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> atomics == AtomicCapability.NONE
                    ? "the device reports atomic_cap IBV_ATOMIC_NONE" : null;
            case BIND_MW -> maxMw == 0 ? "the device reports max_mw 0" : null;
            default -> null;
        };
    }

    /**
     * Refuses, before a queue pair without extended posting is made, an operation that cannot
     * be posted through {@code ibv_post_send} or that the device reports it cannot do.
     *
     * @throws VerbsException {@code EOPNOTSUPP}
     */
    static void refuseWithoutExtendedApi(Set<WrOpcode> operations, AtomicCapability atomics, int maxMw,
                                         String failedCall) {
        for (WrOpcode op : operations) {
            String why = op == WrOpcode.FLUSH || op == WrOpcode.ATOMIC_WRITE
                    ? "its operands pass only through the extended ibv_wr_* API" : lackedBecause(op, atomics, maxMw);
            if (why != null) {
                throw new VerbsException(Errno.EOPNOTSUPP, failedCall + " failed (EOPNOTSUPP), and " + op
                        + " cannot be done without extended queue pairs: " + why);
            }
        }
    }

    private static IbverbsCq ownCq(IbverbsPd pd, CompletionQueue cq) {
        if (!(cq instanceof IbverbsCq own) || own.context != pd.context) {
            throw new VerbsException(Errno.EINVAL, "completion queue belongs to another device");
        }
        return own;
    }

    /**
     * The {@code send_ops_flags} of an operation set.
     *
     * @param runtimeKnowsFlush whether the libibverbs in use has {@code wr_flush} (rdma-core 45+);
     *                          without it a FLUSH would call through a member older providers never set
     * @throws VerbsException {@code EOPNOTSUPP} for {@link WrOpcode#REG_MR}, and for
     *         {@link WrOpcode#FLUSH} when the run-time libibverbs predates it
     */
    static long sendOpsFlags(Set<WrOpcode> operations, boolean runtimeKnowsFlush) {
        if (operations.contains(WrOpcode.REG_MR)) {
            throw new VerbsException(Errno.EOPNOTSUPP, "libibverbs has no user-space fast registration (REG_MR)");
        }
        if (operations.contains(WrOpcode.FLUSH) && !runtimeKnowsFlush) {
            throw new VerbsException(Errno.EOPNOTSUPP, "RDMA FLUSH needs libibverbs of rdma-core "
                    + IbverbsLibrary.FIRST_RELEASE_WITH_FLUSH + " or later; the one in use is "
                    + IbverbsLibrary.runtimeLibraryPath());
        }
        long flags = 0;
        for (WrOpcode op : operations) {
            flags |= sendOpsFlag(op);
        }
        return flags;
    }

    /** The {@code IBV_QP_EX_WITH_*} bit of an operation. */
    static long sendOpsFlag(WrOpcode op) {
        return switch (op) {
            case RDMA_WRITE -> IbverbsConstants.IBV_QP_EX_WITH_RDMA_WRITE;
            case RDMA_WRITE_WITH_IMM -> IbverbsConstants.IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
            case SEND -> IbverbsConstants.IBV_QP_EX_WITH_SEND;
            case SEND_WITH_IMM -> IbverbsConstants.IBV_QP_EX_WITH_SEND_WITH_IMM;
            case RDMA_READ -> IbverbsConstants.IBV_QP_EX_WITH_RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP;
            case ATOMIC_FETCH_AND_ADD -> IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
            case LOCAL_INV -> IbverbsConstants.IBV_QP_EX_WITH_LOCAL_INV;
            case BIND_MW -> IbverbsConstants.IBV_QP_EX_WITH_BIND_MW;
            case SEND_WITH_INV -> IbverbsConstants.IBV_QP_EX_WITH_SEND_WITH_INV;
            case FLUSH -> IbverbsConstants.IBV_QP_EX_WITH_FLUSH;
            case ATOMIC_WRITE -> IbverbsConstants.IBV_QP_EX_WITH_ATOMIC_WRITE;
            case REG_MR -> 0;
        };
    }

    /** The {@code IBV_QPT_*} number of a type. */
    static int qpType(QpType type) {
        return switch (type) {
            case RC -> IbverbsConstants.IBV_QPT_RC;
            case UC -> IbverbsConstants.IBV_QPT_UC;
            case UD -> IbverbsConstants.IBV_QPT_UD;
        };
    }
}
