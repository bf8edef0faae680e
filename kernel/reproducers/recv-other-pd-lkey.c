/*
 * A receive whose scatter entry names a region of another protection domain
 * fails its lkey check when a SEND lands in it: IBTA makes an L_Key valid only
 * within its PD (10.6.3.1) and reports the failure as a local protection error
 * (11.6.2), class A at the responder: the receive completes LOC_PROT_ERR, the
 * sender REM_OP_ERR, and the receiving QP goes to the error state. rxe does all
 * of it but the receive's status, which it reports as LOC_QP_OP_ERR, the status
 * of a WQE it cannot process at all.
 *
 * Finding: errors/ReceiveProtectionTest#receiveIntoAnotherDomainsRegionIsLocalProtectionError
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_pd *other;
	struct ibv_mr *src, *rbuf;
	struct ibv_send_wr wr = { 0 };
	struct ibv_wc wc;

	repro_name = "recv-other-pd-lkey";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE);
	other = ibv_alloc_pd(d.ctx);
	CHECK(other, "ibv_alloc_pd");
	rbuf = mr_new(other, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	post_recv(b.qp, rbuf, 0, 64, 1);
	wr.wr_id = 2;
	wr.opcode = IBV_WR_SEND;
	CHECK(!post_send1(a.qp, &wr, src, 0, 32), "post SEND");
	wait_wc(a.cq, 2, &wc, 3000, "the SEND");
	if (wc.status != IBV_WC_REM_OP_ERR)
		defect("a SEND into a receive of another PD's region completed %s at the sender, "
		       "not REM_OP_ERR", ibv_wc_status_str(wc.status));
	wait_wc(b.cq, 1, &wc, 3000, "the receive");
	if (wc.status != IBV_WC_LOC_PROT_ERR)
		defect("a receive into another PD's region completed %s, not LOC_PROT_ERR",
		       ibv_wc_status_str(wc.status));
	ok("a SEND into a receive of another PD's region: REM_OP_ERR, the receive LOC_PROT_ERR");
}
