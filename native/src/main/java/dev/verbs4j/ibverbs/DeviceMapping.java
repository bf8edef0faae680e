package dev.verbs4j.ibverbs;

import dev.verbs4j.GidEntry;
import dev.verbs4j.GidType;
import dev.verbs4j.ibverbs.binding.ibv_gid_entry;
import dev.verbs4j.AtomicCapability;
import dev.verbs4j.DeviceAttributes;
import dev.verbs4j.Gid;
import dev.verbs4j.Mtu;
import dev.verbs4j.OdpCapabilities;
import dev.verbs4j.OdpCapability;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.PortState;
import dev.verbs4j.ibverbs.binding.IbverbsConstants;
import dev.verbs4j.ibverbs.binding.ibv_device_attr;
import dev.verbs4j.ibverbs.binding.ibv_device_attr_ex;
import dev.verbs4j.ibverbs.binding.ibv_gid;
import dev.verbs4j.ibverbs.binding.ibv_odp_caps;
import dev.verbs4j.ibverbs.binding.ibv_port_attr;

/** Device, port and GID attributes from their libibverbs structs. */
final class DeviceMapping {
    private DeviceMapping() {
    }

    /**
     * The attributes {@code ibv_query_device_ex} filled in. The capability word is the raw
     * 64-bit {@code device_cap_flags_ex}, so bits verbs.h does not name (FLUSH_GLOBAL 38,
     * FLUSH_PERSISTENT 39, ATOMIC_WRITE 40) survive; the low 32 bits of the legacy word are
     * or-ed in for providers that answered through the {@code ibv_query_device} fallback,
     * which leaves the extended fields zero.
     */
    static DeviceAttributes deviceAttributes(ibv_device_attr_ex attr) {
        ibv_device_attr a = attr.orig_attr();
        long capabilities = attr.device_cap_flags_ex() | Integer.toUnsignedLong(a.device_cap_flags());
        int ports = Math.max(a.phys_port_cnt(), attr.phys_port_cnt_ex());
        return new DeviceAttributes(
                a.fw_ver(),
                NetworkOrder.toHost64(a.node_guid()),
                NetworkOrder.toHost64(a.sys_image_guid()),
                a.max_mr_size(),
                a.page_size_cap(),
                a.vendor_id(),
                a.vendor_part_id(),
                a.hw_ver(),
                a.max_qp(),
                a.max_qp_wr(),
                capabilities,
                a.max_sge(),
                a.max_sge_rd(),
                a.max_cq(),
                a.max_cqe(),
                a.max_mr(),
                a.max_pd(),
                a.max_qp_rd_atom(),
                a.max_qp_init_rd_atom(),
                atomicCapability(a.atomic_cap()),
                a.max_mw(),
                a.max_srq(),
                a.max_srq_wr(),
                a.max_srq_sge(),
                a.max_pkeys(),
                a.max_ah(),
                ports,
                odp(attr.odp_caps(), attr.xrc_odp_caps()),
                0, // libibverbs reports no device-wide inline limit; QPs report theirs at creation
                attr.completion_timestamp_mask(),
                attr.hca_core_clock());
    }

    /** A populated {@code ibv_gid_entry}. */
    static GidEntry gidEntry(ibv_gid_entry entry) {
        return new GidEntry(gid(entry.gid()), entry.gid_index(), entry.port_num(), GidType.of(entry.gid_type()),
                entry.ndev_ifindex());
    }

    /** The ODP caps; the per-transport words keep FLUSH (bit 6) and ATOMIC WRITE (bit 7). */
    static OdpCapabilities odp(ibv_odp_caps caps, int xrcCaps) {
        return new OdpCapabilities(
                OdpCapability.fromMask(caps.general_caps()),
                OdpTransportCapability.fromMask(caps.rc_odp_caps()),
                OdpTransportCapability.fromMask(caps.uc_odp_caps()),
                OdpTransportCapability.fromMask(caps.ud_odp_caps()),
                OdpTransportCapability.fromMask(xrcCaps));
    }

    static AtomicCapability atomicCapability(int value) {
        return value == IbverbsConstants.IBV_ATOMIC_HCA ? AtomicCapability.HCA
                : value == IbverbsConstants.IBV_ATOMIC_GLOB ? AtomicCapability.GLOB
                : AtomicCapability.NONE;
    }

    /** The port attributes {@code ibv_query_port} filled in. */
    static PortAttributes portAttributes(ibv_port_attr attr) {
        return new PortAttributes(
                PortState.of(attr.state()),
                mtuOrNull(attr.max_mtu()),
                mtuOrNull(attr.active_mtu()),
                attr.gid_tbl_len(),
                attr.lid(),
                attr.link_layer() == IbverbsConstants.IBV_LINK_LAYER_ETHERNET,
                attr.active_speed(),
                attr.active_width(),
                Integer.toUnsignedLong(attr.max_msg_sz()),
                attr.pkey_tbl_len());
    }

    /** The MTU of an {@code IBV_MTU_*} number, or null for a value outside 1..5 (a port not up yet). */
    static Mtu mtuOrNull(int value) {
        return value >= IbverbsConstants.IBV_MTU_256 && value <= IbverbsConstants.IBV_MTU_4096 ? Mtu.of(value) : null;
    }

    /** The GID stored in {@code gid} (network byte order). */
    static Gid gid(ibv_gid gid) {
        byte[] raw = new byte[16];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = gid.raw(i);
        }
        return Gid.fromBytes(raw);
    }

    /** Stores {@code gid} in network byte order. */
    static void writeGid(Gid gid, ibv_gid target) {
        byte[] raw = gid.toBytes();
        for (int i = 0; i < raw.length; i++) {
            target.raw(i, raw[i]);
        }
    }
}
