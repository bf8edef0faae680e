package dev.verbs4j.ibverbs;

import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_GRH;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_IP_CSUM_OK;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_SUCCESS;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_WITH_IMM;
import static dev.verbs4j.ibverbs.binding.IbverbsConstants.IBV_WC_WITH_INV;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.WcFlag;
import dev.verbs4j.WcOpcode;
import dev.verbs4j.WcStatus;
import dev.verbs4j.WorkCompletion;
import dev.verbs4j.ibverbs.binding.FakeVerbs;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.ibv_wc;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code struct ibv_wc} as a provider writes it, read into {@link WorkCompletion}. */
class CompletionsTest {
    private final ibv_wc wc = new ibv_wc();
    private final WorkCompletion out = new WorkCompletion();

    @AfterEach
    void free() {
        wc.close();
    }

    private WorkCompletion read(int status, int opcode, int flags, int immRaw) {
        FakeVerbs.fillWc(wc, 1, status, opcode, 0, 0, immRaw, 0, 0, flags, 0);
        Completions.fill(wc, out);
        return out;
    }

    @Test
    void everyStatusOfVerbsHReadsAsItsConstant() {
        Map<WcStatus, Integer> libibverbs = Map.ofEntries(
                Map.entry(WcStatus.SUCCESS, IbverbsConstants.IBV_WC_SUCCESS),
                Map.entry(WcStatus.LOC_LEN_ERR, IbverbsConstants.IBV_WC_LOC_LEN_ERR),
                Map.entry(WcStatus.LOC_QP_OP_ERR, IbverbsConstants.IBV_WC_LOC_QP_OP_ERR),
                Map.entry(WcStatus.LOC_EEC_OP_ERR, IbverbsConstants.IBV_WC_LOC_EEC_OP_ERR),
                Map.entry(WcStatus.LOC_PROT_ERR, IbverbsConstants.IBV_WC_LOC_PROT_ERR),
                Map.entry(WcStatus.WR_FLUSH_ERR, IbverbsConstants.IBV_WC_WR_FLUSH_ERR),
                Map.entry(WcStatus.MW_BIND_ERR, IbverbsConstants.IBV_WC_MW_BIND_ERR),
                Map.entry(WcStatus.BAD_RESP_ERR, IbverbsConstants.IBV_WC_BAD_RESP_ERR),
                Map.entry(WcStatus.LOC_ACCESS_ERR, IbverbsConstants.IBV_WC_LOC_ACCESS_ERR),
                Map.entry(WcStatus.REM_INV_REQ_ERR, IbverbsConstants.IBV_WC_REM_INV_REQ_ERR),
                Map.entry(WcStatus.REM_ACCESS_ERR, IbverbsConstants.IBV_WC_REM_ACCESS_ERR),
                Map.entry(WcStatus.REM_OP_ERR, IbverbsConstants.IBV_WC_REM_OP_ERR),
                Map.entry(WcStatus.RETRY_EXC_ERR, IbverbsConstants.IBV_WC_RETRY_EXC_ERR),
                Map.entry(WcStatus.RNR_RETRY_EXC_ERR, IbverbsConstants.IBV_WC_RNR_RETRY_EXC_ERR),
                Map.entry(WcStatus.LOC_RDD_VIOL_ERR, IbverbsConstants.IBV_WC_LOC_RDD_VIOL_ERR),
                Map.entry(WcStatus.REM_INV_RD_REQ_ERR, IbverbsConstants.IBV_WC_REM_INV_RD_REQ_ERR),
                Map.entry(WcStatus.REM_ABORT_ERR, IbverbsConstants.IBV_WC_REM_ABORT_ERR),
                Map.entry(WcStatus.INV_EECN_ERR, IbverbsConstants.IBV_WC_INV_EECN_ERR),
                Map.entry(WcStatus.INV_EEC_STATE_ERR, IbverbsConstants.IBV_WC_INV_EEC_STATE_ERR),
                Map.entry(WcStatus.FATAL_ERR, IbverbsConstants.IBV_WC_FATAL_ERR),
                Map.entry(WcStatus.RESP_TIMEOUT_ERR, IbverbsConstants.IBV_WC_RESP_TIMEOUT_ERR),
                Map.entry(WcStatus.GENERAL_ERR, IbverbsConstants.IBV_WC_GENERAL_ERR),
                Map.entry(WcStatus.TM_ERR, IbverbsConstants.IBV_WC_TM_ERR),
                Map.entry(WcStatus.TM_RNDV_INCOMPLETE, IbverbsConstants.IBV_WC_TM_RNDV_INCOMPLETE));
        assertEquals(WcStatus.values().length, libibverbs.size(), "every status is listed");
        libibverbs.forEach((status, value) -> assertEquals(status, read(value, 0, 0, 0).status(), status.name()));
    }

    @Test
    void statusBeyondVerbsHReadsAsGeneralError() {
        assertEquals(WcStatus.GENERAL_ERR, read(99, 0, 0, 0).status());
        assertEquals(WcStatus.GENERAL_ERR, read(-1, 0, 0, 0).status());
    }

    @Test
    void everyOpcodeIncludingFlushAndAtomicWriteReadsAsItsConstant() {
        Map<WcOpcode, Integer> libibverbs = Map.ofEntries(
                Map.entry(WcOpcode.SEND, IbverbsConstants.IBV_WC_SEND),
                Map.entry(WcOpcode.RDMA_WRITE, IbverbsConstants.IBV_WC_RDMA_WRITE),
                Map.entry(WcOpcode.RDMA_READ, IbverbsConstants.IBV_WC_RDMA_READ),
                Map.entry(WcOpcode.COMP_SWAP, IbverbsConstants.IBV_WC_COMP_SWAP),
                Map.entry(WcOpcode.FETCH_ADD, IbverbsConstants.IBV_WC_FETCH_ADD),
                Map.entry(WcOpcode.BIND_MW, IbverbsConstants.IBV_WC_BIND_MW),
                Map.entry(WcOpcode.LOCAL_INV, IbverbsConstants.IBV_WC_LOCAL_INV),
                Map.entry(WcOpcode.TSO, IbverbsConstants.IBV_WC_TSO),
                Map.entry(WcOpcode.FLUSH, IbverbsConstants.IBV_WC_FLUSH),
                Map.entry(WcOpcode.ATOMIC_WRITE, IbverbsConstants.IBV_WC_ATOMIC_WRITE),
                Map.entry(WcOpcode.RECV, IbverbsConstants.IBV_WC_RECV),
                Map.entry(WcOpcode.RECV_RDMA_WITH_IMM, IbverbsConstants.IBV_WC_RECV_RDMA_WITH_IMM));
        assertEquals(8, IbverbsConstants.IBV_WC_FLUSH);
        assertEquals(9, IbverbsConstants.IBV_WC_ATOMIC_WRITE);
        libibverbs.forEach((opcode, value) -> assertEquals(opcode, read(IBV_WC_SUCCESS, value, 0, 0).opcode(), opcode.name()));
    }

    @Test
    void opcodesTheApiDoesNotNameFallBackByTheReceiveBit() {
        assertEquals(WcOpcode.RECV, read(IBV_WC_SUCCESS, IbverbsConstants.IBV_WC_TM_RECV, 0, 0).opcode());
        assertEquals(WcOpcode.RECV, read(IBV_WC_SUCCESS, IbverbsConstants.IBV_WC_DRIVER2, 0, 0).opcode());
        assertEquals(WcOpcode.SEND, read(IbverbsConstants.IBV_WC_WR_FLUSH_ERR, 77, 0, 0).opcode());
    }

    @Test
    void immediateDataIsReturnedInHostOrder() {
        WorkCompletion c = read(IBV_WC_SUCCESS, IbverbsConstants.IBV_WC_RECV, IBV_WC_WITH_IMM,
                NetworkOrder.toNetwork32(0x01020304));
        assertTrue(c.withImm());
        assertEquals(0x01020304, c.immData());
    }

    @Test
    void invalidatedRkeyIsReturnedAsStored() {
        WorkCompletion c = read(IBV_WC_SUCCESS, IbverbsConstants.IBV_WC_RECV, IBV_WC_WITH_INV, 0xabcdef12);
        assertTrue(c.withInv());
        assertEquals(0xabcdef12, c.invalidatedRkey());
    }

    @Test
    void everyFieldIsCopiedWithItsFullUnsignedRange() {
        int flags = IBV_WC_GRH | IBV_WC_WITH_IMM | IBV_WC_IP_CSUM_OK;
        FakeVerbs.fillWc(wc, 0x8000_0000_0000_0001L, IbverbsConstants.IBV_WC_REM_OP_ERR,
                IbverbsConstants.IBV_WC_RECV_RDMA_WITH_IMM, 0xfffffff1, 0xffffffff, NetworkOrder.toNetwork32(0x80000000),
                0xffffff, 0xabcdef, flags, 0xffff);
        Completions.fill(wc, out);
        assertEquals(0x8000_0000_0000_0001L, out.wrId());
        assertEquals(WcStatus.REM_OP_ERR, out.status());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, out.opcode());
        assertEquals(0xfffffff1, out.vendorError());
        assertEquals(0xffffffff, out.byteLength());
        assertEquals(0x80000000, out.immData());
        assertEquals(0xffffff, out.qpNum());
        assertEquals(0xabcdef, out.srcQp());
        assertEquals(flags, out.flags());
        assertTrue(WcFlag.GRH.isSet(out.flags()) && WcFlag.IP_CSUM_OK.isSet(out.flags()));
        assertEquals(0xffff, out.pkeyIndex());
    }

    @Test
    void completionFlagsAreLibibverbsBits() {
        assertEquals(IbverbsConstants.IBV_WC_GRH, WcFlag.GRH.value());
        assertEquals(IbverbsConstants.IBV_WC_WITH_IMM, WcFlag.WITH_IMM.value());
        assertEquals(IbverbsConstants.IBV_WC_IP_CSUM_OK, WcFlag.IP_CSUM_OK.value());
        assertEquals(IbverbsConstants.IBV_WC_WITH_INV, WcFlag.WITH_INV.value());
    }
}
