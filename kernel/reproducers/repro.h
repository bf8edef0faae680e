/*
 * What the rxe reproducers share: two RC queue pairs on one device (rxe0
 * unless RXE_DEVICE names another) connected to each other through GID 1
 * (the interface's IPv4 address), posting and polling with a deadline, and
 * the one line each prints. Each reproducer is one file that includes this
 * header and builds with: cc -O2 -Wall -o NAME NAME.c -libverbs
 *
 * Exit status: 0 the kernel behaves as IBTA asks, 1 the defect shows,
 * 2 a setup error, 77 skipped (the kernel lacks what the case needs, or the
 * case would take the host down and was not asked to).
 */
#ifndef REPRO_H
#define REPRO_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#define EXIT_OK 0
#define EXIT_DEFECT 1
#define EXIT_SETUP 2
#define EXIT_SKIP 77

static const char *repro_name = "reproducer";
/* The first PSN a queue pair that qp_connect() moves to RTR expects. */
static uint32_t repro_rq_psn;
/* The requester's local ACK timeout and retry count qp_connect sets at RTS (the only time they
 * can be set). */
static uint8_t repro_timeout = 14;
static uint8_t repro_retry_cnt = 3;

static inline void __attribute__((noreturn, format(printf, 3, 4)))
verdict(int status, const char *word, const char *fmt, ...)
{
	va_list ap;

	printf("%s: %s: ", repro_name, word);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(status);
}

#define ok(...) verdict(EXIT_OK, "ok", __VA_ARGS__)
#define defect(...) verdict(EXIT_DEFECT, "defect", __VA_ARGS__)
#define setup_error(...) verdict(EXIT_SETUP, "setup error", __VA_ARGS__)
#define skip(...) verdict(EXIT_SKIP, "skip", __VA_ARGS__)

#define CHECK(cond, what) \
	do { if (!(cond)) setup_error("%s failed (errno %d)", what, errno); } while (0)

#define GID_INDEX 1
#define BUF_SIZE 4096

struct side {
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp_ex *qpx;
};

struct dev {
	struct ibv_context *ctx;
	struct ibv_device_attr_ex attr;
	union ibv_gid gid;
};

static inline void dev_open(struct dev *d)
{
	const char *want = getenv("RXE_DEVICE") ? getenv("RXE_DEVICE") : "rxe0";
	struct ibv_device **list;
	int n, i;

	list = ibv_get_device_list(&n);
	CHECK(list, "ibv_get_device_list");
	d->ctx = NULL;
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), want))
			d->ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!d->ctx)
		setup_error("no device %s", want);
	CHECK(!ibv_query_device_ex(d->ctx, NULL, &d->attr), "ibv_query_device_ex");
	CHECK(!ibv_query_gid(d->ctx, 1, GID_INDEX, &d->gid), "ibv_query_gid");
}

static inline struct ibv_cq *cq_new(struct dev *d)
{
	struct ibv_cq *cq = ibv_create_cq(d->ctx, 16, NULL, NULL, 0);

	CHECK(cq, "ibv_create_cq");
	return cq;
}

/* A queue pair of 'type' on pd with its own CQ; send_ops as ibv_create_qp_ex takes them. */
static inline void side_new(struct dev *d, struct side *s, struct ibv_pd *pd,
		     enum ibv_qp_type type, uint64_t send_ops)
{
	struct ibv_qp_init_attr_ex init = {
		.qp_type = type,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};

	s->pd = pd;
	s->cq = cq_new(d);
	init.send_cq = s->cq;
	init.recv_cq = s->cq;
	if (send_ops) {
		init.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		init.send_ops_flags = send_ops;
	}
	s->qp = ibv_create_qp_ex(d->ctx, &init);
	CHECK(s->qp, "ibv_create_qp_ex");
	s->qpx = send_ops ? ibv_qp_to_qp_ex(s->qp) : NULL;
}

/* Moves qp through INIT and RTR to RTS, aimed at queue pair dqpn at gid. */
static inline void qp_connect(struct ibv_qp *qp, uint32_t dqpn, const union ibv_gid *gid,
		       int access)
{
	struct ibv_qp_attr a;
	int rc_mask = qp->qp_type == IBV_QPT_RC;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = access;
	CHECK(!ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			     IBV_QP_ACCESS_FLAGS), "modify to INIT");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dqpn;
	a.rq_psn = repro_rq_psn;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = GID_INDEX;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	CHECK(!ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			     IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			     (rc_mask ? IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER : 0)),
	      "modify to RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	a.timeout = repro_timeout;
	a.retry_cnt = repro_retry_cnt;
	a.rnr_retry = 3;
	a.max_rd_atomic = 4;
	CHECK(!ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     (rc_mask ? IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			      IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC : 0)),
	      "modify to RTS");
}

#define ALL_REMOTE (IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE | \
		    IBV_ACCESS_REMOTE_ATOMIC)

/* Two queue pairs of 'type' on one PD connected to each other: a posts, b answers. */
static inline void pair_new(struct dev *d, struct side *a, struct side *b, enum ibv_qp_type type,
		     uint64_t send_ops, int b_access)
{
	struct ibv_pd *pd = ibv_alloc_pd(d->ctx);

	CHECK(pd, "ibv_alloc_pd");
	side_new(d, a, pd, type, send_ops);
	side_new(d, b, pd, type, send_ops);
	qp_connect(a->qp, b->qp->qp_num, &d->gid, ALL_REMOTE);
	qp_connect(b->qp, a->qp->qp_num, &d->gid, b_access);
}

static inline struct ibv_mr *mr_new(struct ibv_pd *pd, size_t len, int access)
{
	void *buf = aligned_alloc(4096, len);
	struct ibv_mr *mr;

	CHECK(buf, "aligned_alloc");
	memset(buf, 0, len);
	mr = ibv_reg_mr(pd, buf, len, access);
	CHECK(mr, "ibv_reg_mr");
	return mr;
}

/* The next completion on cq within 'ms' milliseconds; 0 when one came, -1 when none. */
static inline int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, int ms)
{
	struct timespec start, now;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n < 0)
			setup_error("ibv_poll_cq failed");
		if (n == 1)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 +
		    (now.tv_nsec - start.tv_nsec) / 1000000 > ms)
			return -1;
		usleep(200);
	}
}

/* The completion of wr_id on cq (others are skipped), or setup_error after 'ms'. */
static inline void wait_wc(struct ibv_cq *cq, uint64_t wr_id, struct ibv_wc *wc, int ms,
		    const char *what)
{
	do {
		if (poll_one(cq, wc, ms))
			setup_error("no completion for %s within %d ms", what, ms);
	} while (wc->wr_id != wr_id);
}

static inline void post_recv(struct ibv_qp *qp, struct ibv_mr *mr, uint64_t off, uint32_t len,
		      uint64_t wr_id)
{
	struct ibv_sge sge = { (uintptr_t)mr->addr + off, len, mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 }, *bad;

	CHECK(!ibv_post_recv(qp, &wr, &bad), "ibv_post_recv");
}

/* Posts one send work request with one SGE (none when len is 0). */
static inline int post_send1(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_mr *mr,
		      uint64_t off, uint32_t len)
{
	struct ibv_sge sge = { mr ? (uintptr_t)mr->addr + off : 0, len, mr ? mr->lkey : 0 };
	struct ibv_send_wr *bad;

	wr->sg_list = len ? &sge : NULL;
	wr->num_sge = len ? 1 : 0;
	wr->send_flags |= IBV_SEND_SIGNALED;
	return ibv_post_send(qp, wr, &bad);
}

/* Posts BIND_MW of type 2 window mw over len bytes of mr from offset off, granting access, under
 * the window's next key, which it returns; wr_id is the work request's id. */
static inline uint32_t post_bind(struct ibv_qp *qp, uint64_t wr_id, struct ibv_mw *mw, struct ibv_mr *mr,
				 uint64_t off, uint64_t len, unsigned int access)
{
	struct ibv_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.opcode = IBV_WR_BIND_MW;
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info.mr = mr;
	wr.bind_mw.bind_info.addr = (uintptr_t)mr->addr + off;
	wr.bind_mw.bind_info.length = len;
	wr.bind_mw.bind_info.mw_access_flags = access;
	CHECK(!post_send1(qp, &wr, NULL, 0, 0), "post BIND_MW");
	return wr.bind_mw.rkey;
}

/* Binds type 2 window mw over the first len bytes of mr (work request 1 on qp, whose completion
 * queue is cq), granting access; a bind that does not succeed is a setup error. Returns the key. */
static inline uint32_t bind_window(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mw *mw,
				   struct ibv_mr *mr, uint64_t len, unsigned int access)
{
	struct ibv_wc wc;
	uint32_t rkey = post_bind(qp, 1, mw, mr, 0, len, access);

	wait_wc(cq, 1, &wc, 2000, "the bind");
	if (wc.status != IBV_WC_SUCCESS)
		setup_error("the bind completed with %s", ibv_wc_status_str(wc.status));
	return rkey;
}

/* Posts a SEND_WITH_INV of rkey carrying the first len bytes of mr, as work request wr_id. */
static inline void post_send_with_inv(struct ibv_qp *qp, uint64_t wr_id, uint32_t rkey,
				      struct ibv_mr *mr, uint32_t len)
{
	struct ibv_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.invalidate_rkey = rkey;
	CHECK(!post_send1(qp, &wr, mr, 0, len), "post SEND_WITH_INV");
}

/* Device capability bit 38 of device_cap_flags_ex: IB_DEVICE_FLUSH_GLOBAL (kernel 6.2+). */
static inline int has_flush(struct dev *d)
{
	return (d->attr.device_cap_flags_ex >> 38) & 1;
}

/* Posts one FLUSH through the extended send API of qpx. */
static inline int post_flush(struct ibv_qp_ex *qpx, uint64_t wr_id, uint32_t rkey, uint64_t addr,
		      size_t len, uint8_t type, uint8_t level)
{
	ibv_wr_start(qpx);
	qpx->wr_id = wr_id;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_flush(qpx, rkey, addr, len, type, level);
	return ibv_wr_complete(qpx);
}

#endif
