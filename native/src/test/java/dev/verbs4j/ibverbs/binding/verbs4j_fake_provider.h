/*
 * Test-only: a fake provider, so the binding's data-path calls can be
 * exercised on a host without RDMA. libibverbs dispatches these calls
 * through function pointers (struct ibv_qp_ex, struct ibv_cq_ex) or through
 * ibv_context.ops; the fakes below fill those pointers with functions that
 * record their arguments as text, which the tests compare.
 */
#ifndef VERBS4J_FAKE_PROVIDER_H
#define VERBS4J_FAKE_PROVIDER_H

#include <infiniband/verbs.h>

#include <cerrno>
#include <cstddef>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <endian.h>

namespace verbs4j_test {

inline char last_call[512];
inline int next_result = 0; /* returned by the fake calls that return int */

/*
 * Optional log of every recorded call, one per line, for tests that check a
 * sequence (a post is ibv_wr_start, an operation, its data, ibv_wr_complete).
 * Off by default; full logs stop growing rather than wrap.
 */
inline char call_log[16384];
inline size_t call_log_used = 0;
inline bool call_log_on = false;

template <typename... Args>
inline void record(const char *format, Args... args) {
    snprintf(last_call, sizeof last_call, format, args...);
    if (call_log_on) {
        size_t length = strlen(last_call);
        if (call_log_used + length + 2 <= sizeof call_log) {
            memcpy(call_log + call_log_used, last_call, length);
            call_log_used += length;
            call_log[call_log_used++] = '\n';
            call_log[call_log_used] = '\0';
        }
    }
}

inline void start_call_log() {
    call_log_used = 0;
    call_log[0] = '\0';
    call_log_on = true;
}

inline const char *take_call_log() {
    call_log_on = false;
    return call_log;
}

inline const char *take_last_call() { return last_call; }
inline void clear_last_call() { last_call[0] = '\0'; }
inline void set_next_result(int result) { next_result = result; }

/* ---- struct ibv_qp_ex: the ibv_wr_* post path ---- */

inline void prefix(struct ibv_qp_ex *qp, const char *op, char *out, size_t size) {
    snprintf(out, size, "%s wr_id=%" PRIx64 " flags=%x", op, qp->wr_id, qp->wr_flags);
}

#define VERBS4J_RECORD_OP(op, format, ...)                              \
    do {                                                                \
        char head[128];                                                 \
        prefix(qp, op, head, sizeof head);                              \
        record("%s" format, head, __VA_ARGS__);                         \
    } while (0)

inline void wr_send(struct ibv_qp_ex *qp) { VERBS4J_RECORD_OP("send", "%s", ""); }
inline void wr_send_imm(struct ibv_qp_ex *qp, __be32 imm) { VERBS4J_RECORD_OP("send_imm", " imm=%x", imm); }
inline void wr_send_inv(struct ibv_qp_ex *qp, uint32_t rkey) { VERBS4J_RECORD_OP("send_inv", " rkey=%x", rkey); }
inline void wr_rdma_write(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t addr) {
    VERBS4J_RECORD_OP("rdma_write", " rkey=%x addr=%" PRIx64, rkey, addr);
}
inline void wr_rdma_write_imm(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t addr, __be32 imm) {
    VERBS4J_RECORD_OP("rdma_write_imm", " rkey=%x addr=%" PRIx64 " imm=%x", rkey, addr, imm);
}
inline void wr_rdma_read(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t addr) {
    VERBS4J_RECORD_OP("rdma_read", " rkey=%x addr=%" PRIx64, rkey, addr);
}
inline void wr_atomic_cmp_swp(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t addr, uint64_t compare, uint64_t swap) {
    VERBS4J_RECORD_OP("cmp_swp", " rkey=%x addr=%" PRIx64 " compare=%" PRIx64 " swap=%" PRIx64, rkey, addr, compare, swap);
}
inline void wr_atomic_fetch_add(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t addr, uint64_t add) {
    VERBS4J_RECORD_OP("fetch_add", " rkey=%x addr=%" PRIx64 " add=%" PRIx64, rkey, addr, add);
}
inline void wr_atomic_write(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t addr, const void *value) {
    uint64_t bytes;
    memcpy(&bytes, value, sizeof bytes);
    VERBS4J_RECORD_OP("atomic_write", " rkey=%x addr=%" PRIx64 " value=%" PRIx64, rkey, addr, bytes);
}
inline void wr_flush(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t addr, size_t len, uint8_t type, uint8_t level) {
    VERBS4J_RECORD_OP("flush", " rkey=%x addr=%" PRIx64 " len=%zx type=%u level=%u", rkey, addr, len, type, level);
}
inline void wr_local_inv(struct ibv_qp_ex *qp, uint32_t rkey) { VERBS4J_RECORD_OP("local_inv", " rkey=%x", rkey); }
inline void wr_bind_mw(struct ibv_qp_ex *qp, struct ibv_mw *mw, uint32_t rkey, const struct ibv_mw_bind_info *info) {
    VERBS4J_RECORD_OP("bind_mw", " mw=%s rkey=%x addr=%" PRIx64 " length=%" PRIx64 " access=%x", mw ? "set" : "null",
                      rkey, info->addr, info->length, info->mw_access_flags);
}
inline void wr_set_sge(struct ibv_qp_ex *qp, uint32_t lkey, uint64_t addr, uint32_t length) {
    VERBS4J_RECORD_OP("set_sge", " lkey=%x addr=%" PRIx64 " length=%x", lkey, addr, length);
}
inline void wr_set_sge_list(struct ibv_qp_ex *qp, size_t count, const struct ibv_sge *list) {
    VERBS4J_RECORD_OP("set_sge_list", " count=%zu last_addr=%" PRIx64 " last_length=%x last_lkey=%x", count,
                      list[count - 1].addr, list[count - 1].length, list[count - 1].lkey);
}
inline void wr_set_inline_data(struct ibv_qp_ex *qp, void *addr, size_t length) {
    VERBS4J_RECORD_OP("set_inline_data", " text=%.*s", (int)length, (const char *)addr);
}
inline void wr_set_inline_data_list(struct ibv_qp_ex *qp, size_t count, const struct ibv_data_buf *list) {
    VERBS4J_RECORD_OP("set_inline_data_list", " count=%zu last_length=%zu", count, list[count - 1].length);
}
inline void wr_set_ud_addr(struct ibv_qp_ex *qp, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey) {
    VERBS4J_RECORD_OP("set_ud_addr", " ah=%s qpn=%x qkey=%x", ah ? "set" : "null", qpn, qkey);
}
inline void wr_start(struct ibv_qp_ex *qp) { VERBS4J_RECORD_OP("start", "%s", ""); }
inline int wr_complete(struct ibv_qp_ex *qp) {
    VERBS4J_RECORD_OP("complete", "%s", "");
    return next_result;
}
inline void wr_abort(struct ibv_qp_ex *qp) { VERBS4J_RECORD_OP("abort", "%s", ""); }

/* A zeroed ibv_qp_ex with every wr_* pointer set; owned by the caller (free with free_fake). */
inline struct ibv_qp_ex *new_fake_qp_ex() {
    auto *qp = new ibv_qp_ex();
    qp->wr_send = wr_send;
    qp->wr_send_imm = wr_send_imm;
    qp->wr_send_inv = wr_send_inv;
    qp->wr_rdma_write = wr_rdma_write;
    qp->wr_rdma_write_imm = wr_rdma_write_imm;
    qp->wr_rdma_read = wr_rdma_read;
    qp->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
    qp->wr_atomic_fetch_add = wr_atomic_fetch_add;
    qp->wr_atomic_write = wr_atomic_write;
    qp->wr_flush = wr_flush;
    qp->wr_local_inv = wr_local_inv;
    qp->wr_bind_mw = wr_bind_mw;
    qp->wr_set_sge = wr_set_sge;
    qp->wr_set_sge_list = wr_set_sge_list;
    qp->wr_set_inline_data = wr_set_inline_data;
    qp->wr_set_inline_data_list = wr_set_inline_data_list;
    qp->wr_set_ud_addr = wr_set_ud_addr;
    qp->wr_start = wr_start;
    qp->wr_complete = wr_complete;
    qp->wr_abort = wr_abort;
    return qp;
}

inline void delete_fake_qp_ex(struct ibv_qp_ex *qp) { delete qp; }

/* ---- ibv_context.ops: poll, notify, receive posting, memory windows ---- */

/* Writes `next_result` completions numbered from 1 (wr_id = i, byte_len = 100 * i, ...). */
inline int poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc) {
    int produced = next_result < num_entries ? next_result : num_entries;
    for (int i = 0; i < produced; i++) {
        memset(&wc[i], 0, sizeof wc[i]);
        wc[i].wr_id = (uint64_t)(i + 1) | (1ULL << 63);
        wc[i].status = i == 0 ? IBV_WC_SUCCESS : IBV_WC_REM_ACCESS_ERR;
        wc[i].opcode = i == 0 ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_FLUSH;
        wc[i].byte_len = 100u * (i + 1);
        wc[i].imm_data = 0xdeadbeefu;
        wc[i].qp_num = 0xabcdefu;
        wc[i].wc_flags = IBV_WC_WITH_IMM;
        wc[i].sl = 0xffu;
    }
    record("poll_cq cq=%s num_entries=%d", cq->handle == 7 ? "fake" : "other", num_entries);
    return produced;
}

inline int req_notify_cq(struct ibv_cq *cq, int solicited_only) {
    record("req_notify_cq solicited_only=%d", solicited_only);
    return next_result;
}

inline int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr) {
    int count = 0;
    for (struct ibv_recv_wr *w = wr; w != nullptr; w = w->next) {
        count++;
    }
    record("post_recv count=%d first_wr_id=%" PRIx64 " first_sge_lkey=%x", count, wr->wr_id, wr->sg_list[0].lkey);
    *bad_wr = next_result != 0 ? wr->next : nullptr; /* reject the second WR when failing */
    return next_result;
}

/*
 * ibv_post_send, as providers without the extended API take sends: one line per request, with
 * the members its opcode uses. Inline data is read here, during the call, as a provider copies it.
 */
inline int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr) {
    for (struct ibv_send_wr *w = wr; w != nullptr; w = w->next) {
        char operands[256] = "";
        switch (w->opcode) {
        case IBV_WR_RDMA_WRITE: case IBV_WR_RDMA_WRITE_WITH_IMM: case IBV_WR_RDMA_READ:
            snprintf(operands, sizeof operands, " rkey=%x addr=%" PRIx64, w->wr.rdma.rkey, w->wr.rdma.remote_addr);
            break;
        case IBV_WR_ATOMIC_CMP_AND_SWP: case IBV_WR_ATOMIC_FETCH_AND_ADD:
            snprintf(operands, sizeof operands, " rkey=%x addr=%" PRIx64 " compare_add=%" PRIx64 " swap=%" PRIx64,
                     w->wr.atomic.rkey, w->wr.atomic.remote_addr, w->wr.atomic.compare_add, w->wr.atomic.swap);
            break;
        case IBV_WR_SEND_WITH_INV: // rdma-core's siw provider sends wr.rdma.rkey as the key
            snprintf(operands, sizeof operands, " invalidate=%x rkey=%x", w->invalidate_rkey, w->wr.rdma.rkey);
            break;
        case IBV_WR_LOCAL_INV:
            snprintf(operands, sizeof operands, " invalidate=%x", w->invalidate_rkey);
            break;
        case IBV_WR_BIND_MW:
            snprintf(operands, sizeof operands, " mw=%s rkey=%x mr=%s addr=%" PRIx64 " length=%" PRIx64 " access=%x",
                     w->bind_mw.mw ? "set" : "null", w->bind_mw.rkey, w->bind_mw.bind_info.mr ? "set" : "null",
                     w->bind_mw.bind_info.addr, w->bind_mw.bind_info.length, w->bind_mw.bind_info.mw_access_flags);
            break;
        default:
            break;
        }
        if (w->opcode == IBV_WR_SEND_WITH_IMM || w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM) {
            size_t used = strlen(operands);
            snprintf(operands + used, sizeof operands - used, " imm=%x", w->imm_data);
        }
        if (w->opcode == IBV_WR_SEND || w->opcode == IBV_WR_SEND_WITH_IMM) { /* as a UD send reads them */
            size_t used = strlen(operands);
            snprintf(operands + used, sizeof operands - used, " ah=%s qpn=%x qkey=%x", w->wr.ud.ah ? "set" : "null",
                     w->wr.ud.remote_qpn, w->wr.ud.remote_qkey);
        }
        char data[160] = "";
        for (int i = 0; i < w->num_sge; i++) {
            size_t used = strlen(data);
            if (w->send_flags & IBV_SEND_INLINE) {
                snprintf(data + used, sizeof data - used, " text=%.*s", (int)w->sg_list[i].length,
                         (const char *)(uintptr_t)w->sg_list[i].addr);
            } else {
                snprintf(data + used, sizeof data - used, " sge=%x/%" PRIx64 "/%x", w->sg_list[i].lkey,
                         w->sg_list[i].addr, w->sg_list[i].length);
            }
        }
        record("post_send wr_id=%" PRIx64 " flags=%x opcode=%d%s%s", w->wr_id, w->send_flags, (int)w->opcode, operands,
               data);
    }
    *bad_wr = next_result != 0 ? wr : nullptr;
    return next_result;
}

inline int post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr) {
    record("post_srq_recv first_wr_id=%" PRIx64, wr->wr_id);
    *bad_wr = next_result != 0 ? wr : nullptr;
    return next_result;
}

inline int bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *bind) {
    record("bind_mw wr_id=%" PRIx64 " send_flags=%x length=%" PRIx64 " access=%x", bind->wr_id, bind->send_flags,
           bind->bind_info.length, bind->bind_info.mw_access_flags);
    return next_result;
}

/*
 * One fake device object graph: a context whose ops hold the fakes above
 * (alloc_mw stays NULL, as for providers without memory windows), and a
 * PD, CQ, QP, SRQ and type-1 MW on it. abi_compat is not the extended-ABI
 * marker, so libibverbs treats the context as one without extended verbs.
 */
struct fake_device {
    struct ibv_context context;
    struct ibv_pd pd;
    struct ibv_cq cq;
    struct ibv_qp qp;
    struct ibv_srq srq;
    struct ibv_mw mw;
    /* Added for the provider adapter's tests: */
    struct ibv_mr mr;
    struct ibv_ah ah;
    struct ibv_comp_channel channel;
};

inline struct fake_device *new_fake_device() {
    auto *device = new fake_device();
    device->context.ops.poll_cq = poll_cq;
    device->context.ops.req_notify_cq = req_notify_cq;
    device->context.ops.post_recv = post_recv;
    device->context.ops.post_send = post_send;
    device->context.ops.post_srq_recv = post_srq_recv;
    device->context.ops.bind_mw = bind_mw;
    device->pd.context = &device->context;
    device->cq.context = &device->context;
    device->cq.handle = 7;
    device->qp.context = &device->context;
    device->qp.pd = &device->pd;
    device->srq.context = &device->context;
    device->mw.context = &device->context;
    device->mw.pd = &device->pd;
    device->mw.type = IBV_MW_TYPE_1;
    device->mw.rkey = 0x5500u;
    device->mr.context = &device->context;
    device->mr.pd = &device->pd;
    device->mr.lkey = 0x1111u;
    device->mr.rkey = 0x2222u;
    device->ah.context = &device->context;
    device->ah.pd = &device->pd;
    device->channel.context = &device->context;
    device->channel.fd = -1;
    return device;
}

inline void delete_fake_device(struct fake_device *device) { delete device; }
inline struct ibv_context *context_of(struct fake_device *device) { return &device->context; }
inline struct ibv_pd *pd_of(struct fake_device *device) { return &device->pd; }
inline struct ibv_cq *cq_of(struct fake_device *device) { return &device->cq; }
inline struct ibv_qp *qp_of(struct fake_device *device) { return &device->qp; }
inline struct ibv_srq *srq_of(struct fake_device *device) { return &device->srq; }
inline struct ibv_mw *mw_of(struct fake_device *device) { return &device->mw; }

/* ---- additions for the provider adapter's tests ---- */

inline struct ibv_mr *mr_of(struct fake_device *device) { return &device->mr; }
inline struct ibv_ah *ah_of(struct fake_device *device) { return &device->ah; }

/* The fake's completion channel, reading from `fd`. */
inline struct ibv_comp_channel *channel_of(struct fake_device *device, int fd) {
    device->channel.fd = fd;
    return &device->channel;
}

inline void set_async_fd(struct fake_device *device, int fd) { device->context.async_fd = fd; }

inline struct fake_device *device_of_pd(struct ibv_pd *pd) {
    return reinterpret_cast<fake_device *>(reinterpret_cast<char *>(pd) - offsetof(fake_device, pd));
}

/* alloc_mw hands out the device's one window (with the asked type); dealloc_mw returns `next_result`. */
inline struct ibv_mw *alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type) {
    record("alloc_mw type=%d", (int)type);
    struct fake_device *device = device_of_pd(pd);
    device->mw.type = type;
    return &device->mw;
}

inline int dealloc_mw(struct ibv_mw *mw) {
    record("dealloc_mw rkey=%x", mw->rkey);
    return next_result;
}

/* Adds memory-window verbs to the device's ops (new_fake_device leaves alloc_mw NULL). */
inline void enable_window_ops(struct fake_device *device) {
    device->context.ops.alloc_mw = alloc_mw;
    device->context.ops.dealloc_mw = dealloc_mw;
}

/* Writes one work completion as a provider would. */
inline void fill_wc(struct ibv_wc *wc, uint64_t wr_id, int status, int opcode, uint32_t vendor_err, uint32_t byte_len,
                    uint32_t imm_data, uint32_t qp_num, uint32_t src_qp, unsigned int wc_flags, uint16_t pkey_index) {
    memset(wc, 0, sizeof *wc);
    wc->wr_id = wr_id;
    wc->status = (enum ibv_wc_status)status;
    wc->opcode = (enum ibv_wc_opcode)opcode;
    wc->vendor_err = vendor_err;
    wc->byte_len = byte_len;
    wc->imm_data = imm_data;
    wc->qp_num = qp_num;
    wc->src_qp = src_qp;
    wc->wc_flags = wc_flags;
    wc->pkey_index = pkey_index;
}

/* Device attributes with a distinct value in every field the adapter maps. */
inline void fill_device_attr_ex(struct ibv_device_attr_ex *attr) {
    memset(attr, 0, sizeof *attr);
    struct ibv_device_attr *a = &attr->orig_attr;
    snprintf(a->fw_ver, sizeof a->fw_ver, "%s", "1.2.3");
    a->node_guid = htobe64(0x0123456789abcdefull);
    a->sys_image_guid = htobe64(0xfedcba9876543210ull);
    a->max_mr_size = 0xffffffffffffffffull;
    a->page_size_cap = 0xfffff000ull;
    a->vendor_id = 0xffffff;
    a->vendor_part_id = 0x1234;
    a->hw_ver = 7;
    a->max_qp = 1001;
    a->max_qp_wr = 1002;
    a->device_cap_flags = IBV_DEVICE_MEM_WINDOW | IBV_DEVICE_MEM_WINDOW_TYPE_2B;
    a->max_sge = 1003;
    a->max_sge_rd = 1004;
    a->max_cq = 1005;
    a->max_cqe = 1006;
    a->max_mr = 1007;
    a->max_pd = 1008;
    a->max_qp_rd_atom = 1009;
    a->max_qp_init_rd_atom = 1010;
    a->atomic_cap = IBV_ATOMIC_HCA;
    a->max_mw = 1011;
    a->max_srq = 1012;
    a->max_srq_wr = 1013;
    a->max_srq_sge = 1014;
    a->max_pkeys = 0xffff;
    a->max_ah = 1015;
    a->phys_port_cnt = 1;
    attr->device_cap_flags_ex = IBV_DEVICE_MEM_WINDOW | IBV_DEVICE_MEM_WINDOW_TYPE_2B | (1ull << 38) | (1ull << 39)
                                | (1ull << 40);
    attr->odp_caps.general_caps = IBV_ODP_SUPPORT;
    attr->odp_caps.per_transport_caps.rc_odp_caps = IBV_ODP_SUPPORT_SEND | (1u << 6) | (1u << 7);
    attr->odp_caps.per_transport_caps.uc_odp_caps = IBV_ODP_SUPPORT_WRITE;
    attr->odp_caps.per_transport_caps.ud_odp_caps = IBV_ODP_SUPPORT_RECV;
    attr->xrc_odp_caps = IBV_ODP_SUPPORT_SRQ_RECV;
}

/* A RoCE port: active, 4096/1024 MTU, Ethernet link layer. */
inline void fill_port_attr(struct ibv_port_attr *attr) {
    memset(attr, 0, sizeof *attr);
    attr->state = IBV_PORT_ACTIVE;
    attr->max_mtu = IBV_MTU_4096;
    attr->active_mtu = IBV_MTU_1024;
    attr->gid_tbl_len = 16;
    attr->max_msg_sz = 0x80000000u;
    attr->pkey_tbl_len = 64;
    attr->lid = 0;
    attr->active_width = 2;
    attr->active_speed = 32;
    attr->link_layer = IBV_LINK_LAYER_ETHERNET;
}

/* ---- struct ibv_cq_ex: the extended poll API over `next_result` completions ---- */

struct fake_cq_ex {
    struct ibv_cq_ex cq;
    int remaining;
    int current;
};

inline void load_current(struct ibv_cq_ex *cq) {
    auto *fake = reinterpret_cast<fake_cq_ex *>(cq);
    cq->wr_id = 0x1000u + (uint64_t)fake->current;
    cq->status = fake->current == 1 ? IBV_WC_SUCCESS : IBV_WC_WR_FLUSH_ERR;
}

inline int start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr) {
    auto *fake = reinterpret_cast<fake_cq_ex *>(cq);
    fake->remaining = next_result;
    fake->current = 0;
    if (attr->comp_mask != 0) {
        return EINVAL;
    }
    if (fake->remaining == 0) {
        return ENOENT;
    }
    fake->current = 1;
    fake->remaining--;
    load_current(cq);
    return 0;
}

inline int next_poll(struct ibv_cq_ex *cq) {
    auto *fake = reinterpret_cast<fake_cq_ex *>(cq);
    if (fake->remaining == 0) {
        return ENOENT;
    }
    fake->current++;
    fake->remaining--;
    load_current(cq);
    return 0;
}

inline void end_poll(struct ibv_cq_ex *cq) { record("end_poll after=%d", reinterpret_cast<fake_cq_ex *>(cq)->current); }
inline enum ibv_wc_opcode read_opcode(struct ibv_cq_ex *) { return IBV_WC_ATOMIC_WRITE; }
inline uint32_t read_vendor_err(struct ibv_cq_ex *) { return 0xfffffff1u; }
inline uint32_t read_byte_len(struct ibv_cq_ex *cq) { return 0x80000000u + (uint32_t)reinterpret_cast<fake_cq_ex *>(cq)->current; }
inline __be32 read_imm_data(struct ibv_cq_ex *) { return 0xfeedf00du; }
inline uint32_t read_qp_num(struct ibv_cq_ex *) { return 0x123456u; }
inline uint32_t read_src_qp(struct ibv_cq_ex *) { return 0x654321u; }
inline unsigned int read_wc_flags(struct ibv_cq_ex *) { return IBV_WC_WITH_INV; }
inline uint32_t read_slid(struct ibv_cq_ex *) { return 0xfffeu; }
inline uint8_t read_sl(struct ibv_cq_ex *) { return 0xf0u; }
inline uint8_t read_dlid_path_bits(struct ibv_cq_ex *) { return 0x81u; }
inline uint64_t read_completion_ts(struct ibv_cq_ex *) { return 0xfedcba9876543210ull; }
inline uint64_t read_completion_wallclock_ns(struct ibv_cq_ex *) { return 0x8000000000000001ull; }

inline struct ibv_cq_ex *new_fake_cq_ex() {
    auto *fake = new fake_cq_ex();
    fake->cq.start_poll = start_poll;
    fake->cq.next_poll = next_poll;
    fake->cq.end_poll = end_poll;
    fake->cq.read_opcode = read_opcode;
    fake->cq.read_vendor_err = read_vendor_err;
    fake->cq.read_byte_len = read_byte_len;
    fake->cq.read_imm_data = read_imm_data;
    fake->cq.read_qp_num = read_qp_num;
    fake->cq.read_src_qp = read_src_qp;
    fake->cq.read_wc_flags = read_wc_flags;
    fake->cq.read_slid = read_slid;
    fake->cq.read_sl = read_sl;
    fake->cq.read_dlid_path_bits = read_dlid_path_bits;
    fake->cq.read_completion_ts = read_completion_ts;
    fake->cq.read_completion_wallclock_ns = read_completion_wallclock_ns;
    return &fake->cq;
}

inline void delete_fake_cq_ex(struct ibv_cq_ex *cq) { delete reinterpret_cast<fake_cq_ex *>(cq); }

} // namespace verbs4j_test

#endif
