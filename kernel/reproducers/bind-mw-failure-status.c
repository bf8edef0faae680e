/*
 * A BIND_MW that fails (here: a window reaching past its region's end)
 * completes with MW_BIND_ERR (IBTA 10.6.7.2.x and 11.6.2). rxe 6.12 and later
 * complete it with WR_FLUSH_ERR: the queue pair enters the error state before
 * the failing request completes, and the flush overwrites its status. 6.1
 * answers MW_BIND_ERR.
 *
 * Finding: memwindow/WindowBindErrorTest#windowCannotReachPastRegionEnd
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *target;
	struct ibv_mw *mw;
	struct ibv_wc wc;

	repro_name = "bind-mw-failure-status";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE | IBV_ACCESS_MW_BIND);
	target = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_MW_BIND);
	mw = ibv_alloc_mw(a.pd, IBV_MW_TYPE_2);
	CHECK(mw, "ibv_alloc_mw");
	post_bind(a.qp, 1, mw, target, BUF_SIZE / 2, BUF_SIZE, IBV_ACCESS_REMOTE_WRITE);
	wait_wc(a.cq, 1, &wc, 3000, "the bind");
	if (wc.status != IBV_WC_MW_BIND_ERR)
		defect("a BIND_MW past its region's end completed %s, not MW_BIND_ERR",
		       ibv_wc_status_str(wc.status));
	ok("a BIND_MW past its region's end: MW_BIND_ERR");
}
