/*
 * An RDMA WRITE with immediate that the responder refuses (here: an rkey no
 * region has) consumes a receive, which completes in error. The status is the
 * responder's own view, a local access error (IBTA 11.6.2: LOC_ACCESS_ERR,
 * "protection error on local data buffer during processing of an RDMA Write
 * with Immediate"); REM_ACCESS_ERR is the requester's. rxe completes the
 * receive with REM_ACCESS_ERR.
 *
 * Finding: access/RemoteAccessMatrixTest#writeImm.mr.unknownKey
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *src, *rbuf, *target;
	struct ibv_send_wr wr = { 0 };
	struct ibv_wc wc;

	repro_name = "write-imm-refused-recv-status";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE);
	rbuf = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	target = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	post_recv(b.qp, rbuf, 0, 64, 1);
	wr.wr_id = 2;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.imm_data = htonl(7);
	wr.wr.rdma.remote_addr = (uintptr_t)target->addr;
	wr.wr.rdma.rkey = target->rkey + 0x1000;
	CHECK(!post_send1(a.qp, &wr, src, 0, 8), "post WRITE_WITH_IMM");
	wait_wc(a.cq, 2, &wc, 3000, "the WRITE_WITH_IMM");
	if (wc.status != IBV_WC_REM_ACCESS_ERR)
		setup_error("the refused WRITE_WITH_IMM completed %s at the requester",
			    ibv_wc_status_str(wc.status));
	if (poll_one(b.cq, &wc, 2000))
		defect("the refused WRITE_WITH_IMM's receive never completed");
	if (wc.status != IBV_WC_LOC_ACCESS_ERR)
		defect("the receive of a refused WRITE_WITH_IMM completed %s, not LOC_ACCESS_ERR",
		       ibv_wc_status_str(wc.status));
	ok("the receive of a refused WRITE_WITH_IMM: LOC_ACCESS_ERR");
}
