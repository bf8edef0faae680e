package dev.verbs4j;

import java.util.EnumSet;

/**
 * Device capability bits of {@code ibv_device_attr_ex.device_cap_flags_ex}. Bits 38-40
 * (FLUSH and ATOMIC WRITE) have no name in verbs.h; they are the kernel uAPI's
 * {@code IB_UVERBS_DEVICE_FLUSH_GLOBAL}, {@code _FLUSH_PERSISTENT} and {@code _ATOMIC_WRITE}.
 */
public enum DeviceCapability {
    /**
     * {@code IBV_DEVICE_RESIZE_MAX_WR}: the device can change a queue's maximum outstanding work
     * requests.
     */
    RESIZE_MAX_WR(0),

    /** {@code IBV_DEVICE_BAD_PKEY_CNTR}: the device counts packets with a bad P_Key. */
    BAD_PKEY_CNTR(1),

    /** {@code IBV_DEVICE_BAD_QKEY_CNTR}: the device counts datagrams with a bad Q_Key. */
    BAD_QKEY_CNTR(2),

    /** {@code IBV_DEVICE_RAW_MULTI}: raw packet multicast. */
    RAW_MULTI(3),

    /** {@code IBV_DEVICE_AUTO_PATH_MIG}: automatic path migration to an alternate path. */
    AUTO_PATH_MIG(4),

    /** {@code IBV_DEVICE_CHANGE_PHY_PORT}: a queue pair's port can change on SQD→RTS. */
    CHANGE_PHY_PORT(5),

    /**
     * {@code IBV_DEVICE_UD_AV_PORT_ENFORCE}: a UD send checks that the address handle's port is the
     * queue pair's.
     */
    UD_AV_PORT_ENFORCE(6),

    /** {@code IBV_DEVICE_CURR_QP_STATE_MOD}: a modify honours the current state the caller gives. */
    CURR_QP_STATE_MOD(7),

    /** {@code IBV_DEVICE_SHUTDOWN_PORT}: ports can be shut down. */
    SHUTDOWN_PORT(8),

    /** {@code IBV_DEVICE_INIT_TYPE}: the InitType attribute of a port is supported. */
    INIT_TYPE(9),

    /** {@code IBV_DEVICE_PORT_ACTIVE_EVENT}: the device raises {@link AsyncEventType#PORT_ACTIVE}. */
    PORT_ACTIVE_EVENT(10),

    /** {@code IBV_DEVICE_SYS_IMAGE_GUID}: the device reports a system image GUID. */
    SYS_IMAGE_GUID(11),

    /** {@code IBV_DEVICE_RC_RNR_NAK_GEN}: an RC responder sends RNR NAKs when no receive is posted. */
    RC_RNR_NAK_GEN(12),

    /** {@code IBV_DEVICE_SRQ_RESIZE}: a shared receive queue can be resized. */
    SRQ_RESIZE(13),

    /** {@code IBV_DEVICE_N_NOTIFY_CQ}: a completion queue can notify after N completions. */
    N_NOTIFY_CQ(14),

    /** {@code IBV_DEVICE_MEM_WINDOW}: memory windows. */
    MEM_WINDOW(17),

    /** {@code IBV_DEVICE_UD_IP_CSUM}: IP checksum offload on UD queue pairs. */
    UD_IP_CSUM(18),

    /** {@code IBV_DEVICE_XRC}: the extended reliable connected transport. */
    XRC(20),

    /**
     * {@code IBV_DEVICE_MEM_MGT_EXTENSIONS}: fast registration, local invalidate and send with
     * invalidate.
     */
    MEM_MGT_EXTENSIONS(21),

    /** {@code IBV_DEVICE_MEM_WINDOW_TYPE_2A}: type 2A windows, bound to a queue pair. */
    MEM_WINDOW_TYPE_2A(23),

    /**
     * {@code IBV_DEVICE_MEM_WINDOW_TYPE_2B}: type 2B windows, bound to a queue pair and a protection
     * domain.
     */
    MEM_WINDOW_TYPE_2B(24),

    /** {@code IBV_DEVICE_RC_IP_CSUM}: IP checksum offload on RC queue pairs. */
    RC_IP_CSUM(25),

    /** {@code IBV_DEVICE_RAW_IP_CSUM}: IP checksum offload on raw packet queue pairs. */
    RAW_IP_CSUM(26),

    /** {@code IBV_DEVICE_MANAGED_FLOW_STEERING}: flow steering rules. */
    MANAGED_FLOW_STEERING(29),

    /**
     * {@code IBV_DEVICE_RAW_SCATTER_FCS}: raw packet receives can keep the Ethernet frame check
     * sequence.
     */
    RAW_SCATTER_FCS(34),

    /** {@code IBV_DEVICE_PCI_WRITE_END_PADDING}: the device can pad received data to a full cache line. */
    PCI_WRITE_END_PADDING(36),

    /** RDMA FLUSH with global-visibility placement ({@code IB_UVERBS_DEVICE_FLUSH_GLOBAL}). */
    FLUSH_GLOBAL(38),

    /** RDMA FLUSH with persistence placement ({@code IB_UVERBS_DEVICE_FLUSH_PERSISTENT}). */
    FLUSH_PERSISTENT(39),

    /** RDMA ATOMIC WRITE ({@code IB_UVERBS_DEVICE_ATOMIC_WRITE}). */
    ATOMIC_WRITE(40);


    private final int bit;

    DeviceCapability(int bit) {
        this.bit = bit;
    }

    /**
     * The bit number in the 64-bit flag word.
     *
     * @return 0-63
     */
    public int bit() {
        return bit;
    }

    /**
     * The flag value, {@code 1L << bit()}.
     *
     * @return the single-bit mask
     */
    public long value() {
        return 1L << bit;
    }

    /**
     * The capabilities named in a 64-bit flag word; unnamed bits are ignored.
     *
     * @param mask a {@code device_cap_flags_ex} word
     * @return a new set of the named bits in it
     */
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
