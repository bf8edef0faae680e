/*
 * A send whose local key is unknown completes with LOC_PROT_ERR (IBTA
 * 10.6.3.1 and 11.6.2: the local protection check fails). rxe 6.12 and
 * later complete it with WR_FLUSH_ERR: the requester moves the queue pair to
 * the error state before it completes the failing request, whose status is
 * then lost to the flush; 6.1 says LOC_QP_OP_ERR.
 *
 * Finding: errors/LocalProtectionTest#unknownLkeyIsLocalProtectionError
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *src;
	struct ibv_sge sge;
	struct ibv_send_wr wr = { 0 }, *bad;
	struct ibv_wc wc;

	repro_name = "lkey-failure-status";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	sge.addr = (uintptr_t)src->addr;
	sge.length = 8;
	sge.lkey = src->lkey + 0x1000; /* no region has it */
	wr.wr_id = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)src->addr;
	wr.wr.rdma.rkey = src->rkey;
	CHECK(!ibv_post_send(a.qp, &wr, &bad), "ibv_post_send");
	wait_wc(a.cq, 1, &wc, 3000, "the WRITE");
	if (wc.status != IBV_WC_LOC_PROT_ERR)
		defect("a WRITE with an unknown lkey completed %s, not LOC_PROT_ERR",
		       ibv_wc_status_str(wc.status));
	ok("a WRITE with an unknown lkey: LOC_PROT_ERR");
}
