package dev.verbs4j.ibverbs;

import dev.verbs4j.CompletionQueue;
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
        long ops = sendOpsFlags(a.operations(), IbverbsLibrary.runtimeKnowsFlush());
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
            ibv_qp qp = NativeErrors.require(QueuePairVerbs.ibv_create_qp_ex(pd.context.handle, init),
                    "ibv_create_qp_ex(" + a.type() + ", send_ops_flags 0x" + Long.toHexString(ops) + ")");
            ibv_qp_ex extended = QueuePairVerbs.ibv_qp_to_qp_ex(qp);
            if (extended == null || extended.isNull()) {
                QueuePairVerbs.ibv_destroy_qp(qp);
                throw new VerbsException(Errno.EOPNOTSUPP, "the provider has no extended queue pairs (ibv_wr_* API)");
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
