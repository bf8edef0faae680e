package dev.verbs4j;

import java.util.EnumSet;

/**
 * Device capability bits of {@code ibv_device_attr_ex.device_cap_flags_ex}. Bits 38-40
 * (FLUSH and ATOMIC WRITE) have no name in verbs.h; they are the kernel uAPI's
 * {@code IB_UVERBS_DEVICE_FLUSH_GLOBAL}, {@code _FLUSH_PERSISTENT} and {@code _ATOMIC_WRITE}.
 */
public enum DeviceCapability {
    RESIZE_MAX_WR(0), BAD_PKEY_CNTR(1), BAD_QKEY_CNTR(2), RAW_MULTI(3), AUTO_PATH_MIG(4),
    CHANGE_PHY_PORT(5), UD_AV_PORT_ENFORCE(6), CURR_QP_STATE_MOD(7), SHUTDOWN_PORT(8), INIT_TYPE(9),
    PORT_ACTIVE_EVENT(10), SYS_IMAGE_GUID(11), RC_RNR_NAK_GEN(12), SRQ_RESIZE(13), N_NOTIFY_CQ(14),
    MEM_WINDOW(17), UD_IP_CSUM(18), XRC(20), MEM_MGT_EXTENSIONS(21), MEM_WINDOW_TYPE_2A(23),
    MEM_WINDOW_TYPE_2B(24), RC_IP_CSUM(25), RAW_IP_CSUM(26), MANAGED_FLOW_STEERING(29),
    RAW_SCATTER_FCS(34), PCI_WRITE_END_PADDING(36),
    /** RDMA FLUSH with global-visibility placement. */
    FLUSH_GLOBAL(38),
    /** RDMA FLUSH with persistence placement. */
    FLUSH_PERSISTENT(39),
    /** RDMA ATOMIC WRITE. */
    ATOMIC_WRITE(40);

    private final int bit;

    DeviceCapability(int bit) {
        this.bit = bit;
    }

    /** The bit number in the 64-bit flag word. */
    public int bit() {
        return bit;
    }

    /** The flag value, {@code 1L << bit()}. */
    public long value() {
        return 1L << bit;
    }

    /** The capabilities named in a 64-bit flag word; unnamed bits are ignored. */
    public static EnumSet<DeviceCapability> fromMask(long mask) {
        EnumSet<DeviceCapability> set = EnumSet.noneOf(DeviceCapability.class);
        for (DeviceCapability c : values()) {
            if ((mask & c.value()) != 0) {
                set.add(c);
            }
        }
        return set;
    }
}
