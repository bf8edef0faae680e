package dev.verbs4j.ibverbs;

import dev.verbs4j.CqCreateFlag;
import dev.verbs4j.DataInOrder;
import dev.verbs4j.ForkStatus;
import dev.verbs4j.GidType;
import dev.verbs4j.WcField;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The API's enums of extended completion queues, GID entries, fork protection and data
 * ordering carry libibverbs' numbers (which ConstantsMatchHeadersTest checks against the headers).
 */
class ExtendedVerbsValuesTest {

    @Test
    void completionFieldsAreTheWcExWithBits() {
        Map<WcField, Integer> bits = Map.ofEntries(
                Map.entry(WcField.BYTE_LEN, IbverbsConstants.IBV_WC_EX_WITH_BYTE_LEN),
                Map.entry(WcField.IMM, IbverbsConstants.IBV_WC_EX_WITH_IMM),
                Map.entry(WcField.QP_NUM, IbverbsConstants.IBV_WC_EX_WITH_QP_NUM),
                Map.entry(WcField.SRC_QP, IbverbsConstants.IBV_WC_EX_WITH_SRC_QP),
                Map.entry(WcField.SLID, IbverbsConstants.IBV_WC_EX_WITH_SLID),
                Map.entry(WcField.SL, IbverbsConstants.IBV_WC_EX_WITH_SL),
                Map.entry(WcField.DLID_PATH_BITS, IbverbsConstants.IBV_WC_EX_WITH_DLID_PATH_BITS),
                Map.entry(WcField.COMPLETION_TIMESTAMP, IbverbsConstants.IBV_WC_EX_WITH_COMPLETION_TIMESTAMP),
                Map.entry(WcField.CVLAN, IbverbsConstants.IBV_WC_EX_WITH_CVLAN),
                Map.entry(WcField.FLOW_TAG, IbverbsConstants.IBV_WC_EX_WITH_FLOW_TAG),
                Map.entry(WcField.TM_INFO, IbverbsConstants.IBV_WC_EX_WITH_TM_INFO),
                Map.entry(WcField.COMPLETION_TIMESTAMP_WALLCLOCK, IbverbsConstants.IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK));
        assertEquals(WcField.values().length, bits.size());
        bits.forEach((field, bit) -> assertEquals(bit.intValue(), field.value(), field.toString()));
        assertEquals(IbverbsConstants.IBV_WC_STANDARD_FLAGS, WcField.mask(WcField.STANDARD), "IBV_WC_STANDARD_FLAGS");
    }

    @Test
    void creationFlagsGidTypesForkStatusesAndOrderingAreLibibverbsNumbers() {
        assertEquals(IbverbsConstants.IBV_CREATE_CQ_ATTR_SINGLE_THREADED, CqCreateFlag.SINGLE_THREADED.value());
        assertEquals(IbverbsConstants.IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN, CqCreateFlag.IGNORE_OVERRUN.value());
        assertEquals(IbverbsConstants.IBV_GID_TYPE_IB, GidType.IB.value());
        assertEquals(IbverbsConstants.IBV_GID_TYPE_ROCE_V1, GidType.ROCE_V1.value());
        assertEquals(IbverbsConstants.IBV_GID_TYPE_ROCE_V2, GidType.ROCE_V2.value());
        assertEquals(IbverbsConstants.IBV_FORK_DISABLED, ForkStatus.DISABLED.value());
        assertEquals(IbverbsConstants.IBV_FORK_ENABLED, ForkStatus.ENABLED.value());
        assertEquals(IbverbsConstants.IBV_FORK_UNNEEDED, ForkStatus.UNNEEDED.value());
        assertEquals(IbverbsConstants.IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG, DataInOrder.WHOLE_MESSAGE.value());
        assertEquals(IbverbsConstants.IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES, DataInOrder.ALIGNED_128_BYTES.value());
    }
}
