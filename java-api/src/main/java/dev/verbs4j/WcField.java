package dev.verbs4j;

import java.util.EnumSet;
import java.util.Set;

/**
 * A completion field an {@link ExtendedCompletionQueue} is asked to report
 * ({@code enum ibv_create_cq_wc_flags}). The work request id, status, opcode, vendor error
 * and completion flags are always there; the others only when asked for at creation.
 */
public enum WcField {
    /** {@code IBV_WC_EX_WITH_BYTE_LEN}: the byte count. */
    BYTE_LEN(1),

    /** The immediate data, or the rkey a SEND with invalidate invalidated (they share the field). */
    IMM(1 << 1),

    /** {@code IBV_WC_EX_WITH_QP_NUM}: the local queue pair number. */
    QP_NUM(1 << 2),

    /** {@code IBV_WC_EX_WITH_SRC_QP}: the sending queue pair number of a UD receive. */
    SRC_QP(1 << 3),

    /** {@code IBV_WC_EX_WITH_SLID}: the source LID (0 on RoCE). */
    SLID(1 << 4),

    /** {@code IBV_WC_EX_WITH_SL}: the service level. */
    SL(1 << 5),

    /** {@code IBV_WC_EX_WITH_DLID_PATH_BITS}: the destination LID path bits (0 on RoCE). */
    DLID_PATH_BITS(1 << 6),

    /** The device clock when the completion was made, in ticks of {@link DeviceAttributes#hcaCoreClockKhz()}. */
    COMPLETION_TIMESTAMP(1 << 7),

    /** {@code IBV_WC_EX_WITH_CVLAN}: the customer VLAN tag of a raw packet receive. */
    CVLAN(1 << 8),

    /** {@code IBV_WC_EX_WITH_FLOW_TAG}: the tag of the flow steering rule that matched. */
    FLOW_TAG(1 << 9),

    /** {@code IBV_WC_EX_WITH_TM_INFO}: tag-matching information. */
    TM_INFO(1 << 10),

    /** The completion's time in nanoseconds of the host's real-time clock. */
    COMPLETION_TIMESTAMP_WALLCLOCK(1 << 11);


    /** {@code IBV_WC_STANDARD_FLAGS}: the fields every provider of extended queues reports. */
    public static final Set<WcField> STANDARD = Set.copyOf(EnumSet.of(BYTE_LEN, IMM, QP_NUM, SRC_QP, SLID, SL, DLID_PATH_BITS));

    private final int value;

    WcField(int value) {
        this.value = value;
    }

    /**
     * The {@code IBV_WC_EX_WITH_*} bit.
     *
     * @return the single-bit mask
     */
    public int value() {
        return value;
    }

    /**
     * The bits of a set of fields.
     *
     * @param fields the fields
     * @return the {@code wc_flags} word for {@code ibv_cq_init_attr_ex}
     */
    public static long mask(Set<WcField> fields) {
        long mask = 0;
        for (WcField f : fields) {
            mask |= f.value;
        }
        return mask;
    }
}
