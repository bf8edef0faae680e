package dev.verbs4j.ibverbs.binding;

import org.bytedeco.javacpp.annotation.Properties;

/**
 * The libibverbs constants the binding uses, with their C names and values,
 * grouped by the C enum (or #define set) that declares them.
 *
 * <p>Plain Java constants so that switches and flag tests cost nothing;
 * the unit tests compare every one of them with the value the C++ compiler
 * sees in the headers. Values are those of rdma-core 65 headers, and are
 * stable ABI: rdma-core only appends. Bits libibverbs does not name in all
 * supported versions carry their kernel uAPI value.
 */
@Properties(inherit = IbverbsLibrary.class) // tells the JavaCPP build this class belongs to the binding
public final class IbverbsConstants {
    private IbverbsConstants() {
    }

    // ---- enum ibv_node_type ----
    public static final int IBV_NODE_UNKNOWN = -1;
    public static final int IBV_NODE_CA = 1;
    public static final int IBV_NODE_SWITCH = 2;
    public static final int IBV_NODE_ROUTER = 3;
    public static final int IBV_NODE_RNIC = 4;
    public static final int IBV_NODE_USNIC = 5;
    public static final int IBV_NODE_USNIC_UDP = 6;
    public static final int IBV_NODE_UNSPECIFIED = 7;

    // ---- enum ibv_transport_type ----
    public static final int IBV_TRANSPORT_UNKNOWN = -1;
    public static final int IBV_TRANSPORT_IB = 0;
    public static final int IBV_TRANSPORT_IWARP = 1;
    public static final int IBV_TRANSPORT_USNIC = 2;
    public static final int IBV_TRANSPORT_USNIC_UDP = 3;
    public static final int IBV_TRANSPORT_UNSPECIFIED = 4;

    // ---- enum ibv_device_cap_flags and the 64-bit #defines: bits of device_cap_flags(_ex) ----
    public static final long IBV_DEVICE_RESIZE_MAX_WR = 1L;
    public static final long IBV_DEVICE_BAD_PKEY_CNTR = 1L << 1;
    public static final long IBV_DEVICE_BAD_QKEY_CNTR = 1L << 2;
    public static final long IBV_DEVICE_RAW_MULTI = 1L << 3;
    public static final long IBV_DEVICE_AUTO_PATH_MIG = 1L << 4;
    public static final long IBV_DEVICE_CHANGE_PHY_PORT = 1L << 5;
    public static final long IBV_DEVICE_UD_AV_PORT_ENFORCE = 1L << 6;
    public static final long IBV_DEVICE_CURR_QP_STATE_MOD = 1L << 7;
    public static final long IBV_DEVICE_SHUTDOWN_PORT = 1L << 8;
    public static final long IBV_DEVICE_INIT_TYPE = 1L << 9;
    public static final long IBV_DEVICE_PORT_ACTIVE_EVENT = 1L << 10;
    public static final long IBV_DEVICE_SYS_IMAGE_GUID = 1L << 11;
    public static final long IBV_DEVICE_RC_RNR_NAK_GEN = 1L << 12;
    public static final long IBV_DEVICE_SRQ_RESIZE = 1L << 13;
    public static final long IBV_DEVICE_N_NOTIFY_CQ = 1L << 14;
    public static final long IBV_DEVICE_MEM_WINDOW = 1L << 17;
    public static final long IBV_DEVICE_UD_IP_CSUM = 1L << 18;
    public static final long IBV_DEVICE_XRC = 1L << 20;
    public static final long IBV_DEVICE_MEM_MGT_EXTENSIONS = 1L << 21;
    public static final long IBV_DEVICE_MEM_WINDOW_TYPE_2A = 1L << 23;
    public static final long IBV_DEVICE_MEM_WINDOW_TYPE_2B = 1L << 24;
    public static final long IBV_DEVICE_RC_IP_CSUM = 1L << 25;
    public static final long IBV_DEVICE_RAW_IP_CSUM = 1L << 26;
    public static final long IBV_DEVICE_MANAGED_FLOW_STEERING = 1L << 29;
    public static final long IBV_DEVICE_RAW_SCATTER_FCS = 1L << 34;
    public static final long IBV_DEVICE_PCI_WRITE_END_PADDING = 1L << 36;

    // ---- Kernel uAPI enum ib_uverbs_device_cap_flags ----
    // Bits that verbs.h does not name (kernel >= 6.2). libibverbs copies the kernel word raw
    // into device_cap_flags_ex, so these are read from it by value.
    /** The device executes RDMA FLUSH with global visibility placement. */
    public static final long IB_UVERBS_DEVICE_FLUSH_GLOBAL = 1L << 38;
    /** The device executes RDMA FLUSH with persistence placement. */
    public static final long IB_UVERBS_DEVICE_FLUSH_PERSISTENT = 1L << 39;
    /** The device executes RDMA ATOMIC WRITE. */
    public static final long IB_UVERBS_DEVICE_ATOMIC_WRITE = 1L << 40;

    // ---- enum ibv_atomic_cap ----
    public static final int IBV_ATOMIC_NONE = 0;
    public static final int IBV_ATOMIC_HCA = 1;
    public static final int IBV_ATOMIC_GLOB = 2;

    // ---- enum ibv_odp_general_caps (ibv_odp_caps.general_caps) ----
    public static final int IBV_ODP_SUPPORT = 1;
    public static final int IBV_ODP_SUPPORT_IMPLICIT = 1 << 1;

    // ---- enum ibv_odp_transport_cap_bits ----
    // Bits of the ibv_odp_caps per-transport words and of xrc_odp_caps. FLUSH and ATOMIC_WRITE
    // are named by rdma-core >= 58 only; the values are fixed by the kernel uAPI.
    public static final int IBV_ODP_SUPPORT_SEND = 1;
    public static final int IBV_ODP_SUPPORT_RECV = 1 << 1;
    public static final int IBV_ODP_SUPPORT_WRITE = 1 << 2;
    public static final int IBV_ODP_SUPPORT_READ = 1 << 3;
    public static final int IBV_ODP_SUPPORT_ATOMIC = 1 << 4;
    public static final int IBV_ODP_SUPPORT_SRQ_RECV = 1 << 5;
    public static final int IBV_ODP_SUPPORT_FLUSH = 1 << 6;
    public static final int IBV_ODP_SUPPORT_ATOMIC_WRITE = 1 << 7;

    // ---- enum ibv_mtu ----
    public static final int IBV_MTU_256 = 1;
    public static final int IBV_MTU_512 = 2;
    public static final int IBV_MTU_1024 = 3;
    public static final int IBV_MTU_2048 = 4;
    public static final int IBV_MTU_4096 = 5;

    // ---- enum ibv_port_state ----
    public static final int IBV_PORT_NOP = 0;
    public static final int IBV_PORT_DOWN = 1;
    public static final int IBV_PORT_INIT = 2;
    public static final int IBV_PORT_ARMED = 3;
    public static final int IBV_PORT_ACTIVE = 4;
    public static final int IBV_PORT_ACTIVE_DEFER = 5;

    // ---- ibv_port_attr.link_layer ----
    public static final int IBV_LINK_LAYER_UNSPECIFIED = 0;
    public static final int IBV_LINK_LAYER_INFINIBAND = 1;
    public static final int IBV_LINK_LAYER_ETHERNET = 2;

    // ---- ibv_port_attr.flags ----
    public static final int IBV_QPF_GRH_REQUIRED = 1;

    // ---- enum ibv_gid_type (ibv_gid_entry.gid_type) ----
    public static final int IBV_GID_TYPE_IB = 0;
    public static final int IBV_GID_TYPE_ROCE_V1 = 1;
    public static final int IBV_GID_TYPE_ROCE_V2 = 2;

    // ---- enum ibv_event_type ----
    public static final int IBV_EVENT_CQ_ERR = 0;
    public static final int IBV_EVENT_QP_FATAL = 1;
    public static final int IBV_EVENT_QP_REQ_ERR = 2;
    public static final int IBV_EVENT_QP_ACCESS_ERR = 3;
    public static final int IBV_EVENT_COMM_EST = 4;
    public static final int IBV_EVENT_SQ_DRAINED = 5;
    public static final int IBV_EVENT_PATH_MIG = 6;
    public static final int IBV_EVENT_PATH_MIG_ERR = 7;
    public static final int IBV_EVENT_DEVICE_FATAL = 8;
    public static final int IBV_EVENT_PORT_ACTIVE = 9;
    public static final int IBV_EVENT_PORT_ERR = 10;
    public static final int IBV_EVENT_LID_CHANGE = 11;
    public static final int IBV_EVENT_PKEY_CHANGE = 12;
    public static final int IBV_EVENT_SM_CHANGE = 13;
    public static final int IBV_EVENT_SRQ_ERR = 14;
    public static final int IBV_EVENT_SRQ_LIMIT_REACHED = 15;
    public static final int IBV_EVENT_QP_LAST_WQE_REACHED = 16;
    public static final int IBV_EVENT_CLIENT_REREGISTER = 17;
    public static final int IBV_EVENT_GID_CHANGE = 18;
    public static final int IBV_EVENT_WQ_FATAL = 19;

    // ---- enum ibv_wc_status ----
    public static final int IBV_WC_SUCCESS = 0;
    public static final int IBV_WC_LOC_LEN_ERR = 1;
    public static final int IBV_WC_LOC_QP_OP_ERR = 2;
    public static final int IBV_WC_LOC_EEC_OP_ERR = 3;
    public static final int IBV_WC_LOC_PROT_ERR = 4;
    public static final int IBV_WC_WR_FLUSH_ERR = 5;
    public static final int IBV_WC_MW_BIND_ERR = 6;
    public static final int IBV_WC_BAD_RESP_ERR = 7;
    public static final int IBV_WC_LOC_ACCESS_ERR = 8;
    public static final int IBV_WC_REM_INV_REQ_ERR = 9;
    public static final int IBV_WC_REM_ACCESS_ERR = 10;
    public static final int IBV_WC_REM_OP_ERR = 11;
    public static final int IBV_WC_RETRY_EXC_ERR = 12;
    public static final int IBV_WC_RNR_RETRY_EXC_ERR = 13;
    public static final int IBV_WC_LOC_RDD_VIOL_ERR = 14;
    public static final int IBV_WC_REM_INV_RD_REQ_ERR = 15;
    public static final int IBV_WC_REM_ABORT_ERR = 16;
    public static final int IBV_WC_INV_EECN_ERR = 17;
    public static final int IBV_WC_INV_EEC_STATE_ERR = 18;
    public static final int IBV_WC_FATAL_ERR = 19;
    public static final int IBV_WC_RESP_TIMEOUT_ERR = 20;
    public static final int IBV_WC_GENERAL_ERR = 21;
    public static final int IBV_WC_TM_ERR = 22;
    public static final int IBV_WC_TM_RNDV_INCOMPLETE = 23;

    // ---- enum ibv_wc_opcode; receive opcodes have the IBV_WC_RECV bit ----
    public static final int IBV_WC_SEND = 0;
    public static final int IBV_WC_RDMA_WRITE = 1;
    public static final int IBV_WC_RDMA_READ = 2;
    public static final int IBV_WC_COMP_SWAP = 3;
    public static final int IBV_WC_FETCH_ADD = 4;
    public static final int IBV_WC_BIND_MW = 5;
    public static final int IBV_WC_LOCAL_INV = 6;
    public static final int IBV_WC_TSO = 7;
    public static final int IBV_WC_FLUSH = 8;
    public static final int IBV_WC_ATOMIC_WRITE = 9;
    public static final int IBV_WC_RECV = 1 << 7;
    public static final int IBV_WC_RECV_RDMA_WITH_IMM = (1 << 7) + 1;
    public static final int IBV_WC_TM_ADD = (1 << 7) + 2;
    public static final int IBV_WC_TM_DEL = (1 << 7) + 3;
    public static final int IBV_WC_TM_SYNC = (1 << 7) + 4;
    public static final int IBV_WC_TM_RECV = (1 << 7) + 5;
    public static final int IBV_WC_TM_NO_TAG = (1 << 7) + 6;
    public static final int IBV_WC_DRIVER1 = (1 << 7) + 7;
    public static final int IBV_WC_DRIVER2 = (1 << 7) + 8;
    public static final int IBV_WC_DRIVER3 = (1 << 7) + 9;

    // ---- enum ibv_wc_flags (ibv_wc.wc_flags) ----
    public static final int IBV_WC_GRH = 1;
    public static final int IBV_WC_WITH_IMM = 1 << 1;
    public static final int IBV_WC_IP_CSUM_OK = 1 << 2;
    public static final int IBV_WC_WITH_INV = 1 << 3;
    public static final int IBV_WC_TM_SYNC_REQ = 1 << 4;
    public static final int IBV_WC_TM_MATCH = 1 << 5;
    public static final int IBV_WC_TM_DATA_VALID = 1 << 6;

    // ---- enum ibv_create_cq_wc_flags (ibv_cq_init_attr_ex.wc_flags) ----
    public static final int IBV_WC_EX_WITH_BYTE_LEN = 1;
    public static final int IBV_WC_EX_WITH_IMM = 1 << 1;
    public static final int IBV_WC_EX_WITH_QP_NUM = 1 << 2;
    public static final int IBV_WC_EX_WITH_SRC_QP = 1 << 3;
    public static final int IBV_WC_EX_WITH_SLID = 1 << 4;
    public static final int IBV_WC_EX_WITH_SL = 1 << 5;
    public static final int IBV_WC_EX_WITH_DLID_PATH_BITS = 1 << 6;
    public static final int IBV_WC_EX_WITH_COMPLETION_TIMESTAMP = 1 << 7;
    public static final int IBV_WC_EX_WITH_CVLAN = 1 << 8;
    public static final int IBV_WC_EX_WITH_FLOW_TAG = 1 << 9;
    public static final int IBV_WC_EX_WITH_TM_INFO = 1 << 10;
    public static final int IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK = 1 << 11;
    public static final int IBV_WC_STANDARD_FLAGS = 0x7f;

    // ---- enum ibv_cq_init_attr_mask and enum ibv_create_cq_attr_flags ----
    public static final int IBV_CQ_INIT_ATTR_MASK_FLAGS = 1;
    public static final int IBV_CQ_INIT_ATTR_MASK_PD = 1 << 1;
    public static final int IBV_CREATE_CQ_ATTR_SINGLE_THREADED = 1;
    public static final int IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN = 1 << 1;

    // ---- enum ibv_access_flags (MR, MW bind and QP access) ----
    public static final int IBV_ACCESS_LOCAL_WRITE = 1;
    public static final int IBV_ACCESS_REMOTE_WRITE = 1 << 1;
    public static final int IBV_ACCESS_REMOTE_READ = 1 << 2;
    public static final int IBV_ACCESS_REMOTE_ATOMIC = 1 << 3;
    public static final int IBV_ACCESS_MW_BIND = 1 << 4;
    public static final int IBV_ACCESS_ZERO_BASED = 1 << 5;
    public static final int IBV_ACCESS_ON_DEMAND = 1 << 6;
    public static final int IBV_ACCESS_HUGETLB = 1 << 7;
    public static final int IBV_ACCESS_FLUSH_GLOBAL = 1 << 8;
    public static final int IBV_ACCESS_FLUSH_PERSISTENT = 1 << 9;
    public static final int IBV_ACCESS_RELAXED_ORDERING = 1 << 20;
    public static final int IBV_ACCESS_OPTIONAL_FIRST = 1 << 20;
    public static final int IBV_ACCESS_OPTIONAL_RANGE = 0x3ff00000;

    // ---- enum ibv_rereg_mr_flags and enum ibv_rereg_mr_err_code ----
    public static final int IBV_REREG_MR_CHANGE_TRANSLATION = 1;
    public static final int IBV_REREG_MR_CHANGE_PD = 1 << 1;
    public static final int IBV_REREG_MR_CHANGE_ACCESS = 1 << 2;
    public static final int IBV_REREG_MR_FLAGS_SUPPORTED = 7;
    public static final int IBV_REREG_MR_ERR_INPUT = -1;
    public static final int IBV_REREG_MR_ERR_DONT_FORK_NEW = -2;
    public static final int IBV_REREG_MR_ERR_DO_FORK_OLD = -3;
    public static final int IBV_REREG_MR_ERR_CMD = -4;
    public static final int IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW = -5;

    // ---- enum ibv_advise_mr_advice and its flag (ibv_advise_mr) ----
    public static final int IBV_ADVISE_MR_ADVICE_PREFETCH = 0;
    public static final int IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE = 1;
    public static final int IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT = 2;
    public static final int IBV_ADVISE_MR_FLAG_FLUSH = 1;

    // ---- enum ibv_mw_type ----
    public static final int IBV_MW_TYPE_1 = 1;
    public static final int IBV_MW_TYPE_2 = 2;

    // ---- enum ibv_rate (ibv_ah_attr.static_rate): the common values ----
    public static final int IBV_RATE_MAX = 0;
    public static final int IBV_RATE_10_GBPS = 3;
    public static final int IBV_RATE_25_GBPS = 15;
    public static final int IBV_RATE_40_GBPS = 7;
    public static final int IBV_RATE_100_GBPS = 16;

    // ---- enum ibv_fork_status ----
    public static final int IBV_FORK_DISABLED = 0;
    public static final int IBV_FORK_ENABLED = 1;
    public static final int IBV_FORK_UNNEEDED = 2;

    // ---- enum ibv_query_qp_data_in_order_flags and _caps ----
    public static final int IBV_QUERY_QP_DATA_IN_ORDER_RETURN_CAPS = 1;
    public static final int IBV_QUERY_QP_DATA_IN_ORDER_DEVICE_ONLY = 1 << 1;
    public static final int IBV_QUERY_QP_DATA_IN_ORDER_WHOLE_MSG = 1;
    public static final int IBV_QUERY_QP_DATA_IN_ORDER_ALIGNED_128_BYTES = 1 << 1;

    // ---- enum ibv_srq_attr_mask ----
    public static final int IBV_SRQ_MAX_WR = 1;
    public static final int IBV_SRQ_LIMIT = 1 << 1;

    // ---- enum ibv_qp_type ----
    public static final int IBV_QPT_RC = 2;
    public static final int IBV_QPT_UC = 3;
    public static final int IBV_QPT_UD = 4;
    public static final int IBV_QPT_RAW_PACKET = 8;
    public static final int IBV_QPT_XRC_SEND = 9;
    public static final int IBV_QPT_XRC_RECV = 10;
    public static final int IBV_QPT_DRIVER = 0xff;

    // ---- enum ibv_qp_init_attr_mask (ibv_qp_init_attr_ex.comp_mask) ----
    public static final int IBV_QP_INIT_ATTR_PD = 1;
    public static final int IBV_QP_INIT_ATTR_XRCD = 1 << 1;
    public static final int IBV_QP_INIT_ATTR_CREATE_FLAGS = 1 << 2;
    public static final int IBV_QP_INIT_ATTR_MAX_TSO_HEADER = 1 << 3;
    public static final int IBV_QP_INIT_ATTR_IND_TABLE = 1 << 4;
    public static final int IBV_QP_INIT_ATTR_RX_HASH = 1 << 5;
    public static final int IBV_QP_INIT_ATTR_SEND_OPS_FLAGS = 1 << 6;

    // ---- enum ibv_qp_create_flags (ibv_qp_init_attr_ex.create_flags) ----
    public static final int IBV_QP_CREATE_BLOCK_SELF_MCAST_LB = 1 << 1;
    public static final int IBV_QP_CREATE_SCATTER_FCS = 1 << 8;
    public static final int IBV_QP_CREATE_CVLAN_STRIPPING = 1 << 9;
    public static final int IBV_QP_CREATE_SOURCE_QPN = 1 << 10;
    public static final int IBV_QP_CREATE_PCI_WRITE_END_PADDING = 1 << 11;

    // ---- enum ibv_qp_create_send_ops_flags ----
    // The ibv_wr_* operations a QP accepts, in ibv_qp_init_attr_ex.send_ops_flags
    public static final int IBV_QP_EX_WITH_RDMA_WRITE = 1;
    public static final int IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM = 1 << 1;
    public static final int IBV_QP_EX_WITH_SEND = 1 << 2;
    public static final int IBV_QP_EX_WITH_SEND_WITH_IMM = 1 << 3;
    public static final int IBV_QP_EX_WITH_RDMA_READ = 1 << 4;
    public static final int IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP = 1 << 5;
    public static final int IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD = 1 << 6;
    public static final int IBV_QP_EX_WITH_LOCAL_INV = 1 << 7;
    public static final int IBV_QP_EX_WITH_BIND_MW = 1 << 8;
    public static final int IBV_QP_EX_WITH_SEND_WITH_INV = 1 << 9;
    public static final int IBV_QP_EX_WITH_TSO = 1 << 10;
    public static final int IBV_QP_EX_WITH_FLUSH = 1 << 11;
    public static final int IBV_QP_EX_WITH_ATOMIC_WRITE = 1 << 12;

    // ---- enum ibv_qp_attr_mask (ibv_modify_qp / ibv_query_qp) ----
    public static final int IBV_QP_STATE = 1;
    public static final int IBV_QP_CUR_STATE = 1 << 1;
    public static final int IBV_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2;
    public static final int IBV_QP_ACCESS_FLAGS = 1 << 3;
    public static final int IBV_QP_PKEY_INDEX = 1 << 4;
    public static final int IBV_QP_PORT = 1 << 5;
    public static final int IBV_QP_QKEY = 1 << 6;
    public static final int IBV_QP_AV = 1 << 7;
    public static final int IBV_QP_PATH_MTU = 1 << 8;
    public static final int IBV_QP_TIMEOUT = 1 << 9;
    public static final int IBV_QP_RETRY_CNT = 1 << 10;
    public static final int IBV_QP_RNR_RETRY = 1 << 11;
    public static final int IBV_QP_RQ_PSN = 1 << 12;
    public static final int IBV_QP_MAX_QP_RD_ATOMIC = 1 << 13;
    public static final int IBV_QP_ALT_PATH = 1 << 14;
    public static final int IBV_QP_MIN_RNR_TIMER = 1 << 15;
    public static final int IBV_QP_SQ_PSN = 1 << 16;
    public static final int IBV_QP_MAX_DEST_RD_ATOMIC = 1 << 17;
    public static final int IBV_QP_PATH_MIG_STATE = 1 << 18;
    public static final int IBV_QP_CAP = 1 << 19;
    public static final int IBV_QP_DEST_QPN = 1 << 20;
    public static final int IBV_QP_RATE_LIMIT = 1 << 25;

    // ---- enum ibv_qp_state ----
    public static final int IBV_QPS_RESET = 0;
    public static final int IBV_QPS_INIT = 1;
    public static final int IBV_QPS_RTR = 2;
    public static final int IBV_QPS_RTS = 3;
    public static final int IBV_QPS_SQD = 4;
    public static final int IBV_QPS_SQE = 5;
    public static final int IBV_QPS_ERR = 6;
    public static final int IBV_QPS_UNKNOWN = 7;

    // ---- enum ibv_mig_state ----
    public static final int IBV_MIG_MIGRATED = 0;
    public static final int IBV_MIG_REARM = 1;
    public static final int IBV_MIG_ARMED = 2;

    // ---- enum ibv_wr_opcode ----
    // The opcodes of the legacy ibv_send_wr, and the operation an ibv_wr_* call posts
    public static final int IBV_WR_RDMA_WRITE = 0;
    public static final int IBV_WR_RDMA_WRITE_WITH_IMM = 1;
    public static final int IBV_WR_SEND = 2;
    public static final int IBV_WR_SEND_WITH_IMM = 3;
    public static final int IBV_WR_RDMA_READ = 4;
    public static final int IBV_WR_ATOMIC_CMP_AND_SWP = 5;
    public static final int IBV_WR_ATOMIC_FETCH_AND_ADD = 6;
    public static final int IBV_WR_LOCAL_INV = 7;
    public static final int IBV_WR_BIND_MW = 8;
    public static final int IBV_WR_SEND_WITH_INV = 9;
    public static final int IBV_WR_TSO = 10;
    public static final int IBV_WR_DRIVER1 = 11;
    public static final int IBV_WR_FLUSH = 14;
    public static final int IBV_WR_ATOMIC_WRITE = 15;

    // ---- enum ibv_send_flags (ibv_qp_ex.wr_flags, ibv_mw_bind.send_flags) ----
    public static final int IBV_SEND_FENCE = 1;
    public static final int IBV_SEND_SIGNALED = 1 << 1;
    public static final int IBV_SEND_SOLICITED = 1 << 2;
    public static final int IBV_SEND_INLINE = 1 << 3;
    public static final int IBV_SEND_IP_CSUM = 1 << 4;

    // ---- enum ibv_placement_type (ibv_wr_flush type) ----
    public static final int IBV_FLUSH_GLOBAL = 1;
    public static final int IBV_FLUSH_PERSISTENT = 1 << 1;

    // ---- enum ibv_selectivity_level (ibv_wr_flush level) ----
    public static final int IBV_FLUSH_RANGE = 0;
    public static final int IBV_FLUSH_MR = 1;
}
