/*
 * A LOCAL_INV of a type 2 window that was allocated and never bound. IBTA
 * 10.6.7.2 lets a consumer invalidate a window's rkey; one that grants
 * nothing has nothing to revoke. rxe takes the window for a bound one and
 * drops a reference to a queue pair it does not hold (a NULL pointer) in
 * its work queue: the kernel oopses and, as rxe's tasks run in a work
 * queue, panics. A SEND_WITH_INV naming such a window does the same from a
 * remote peer. Runs only with --allow-panic; without it prints a skip line
 * and exits 77.
 *
 * Finding: - (the ibverbs provider refuses such a LOCAL_INV; see docs/kernel-findings.md)
 */
#include "repro.h"

int main(int argc, char **argv)
{
	struct dev d;
	struct side a, b;
	struct ibv_mw *mw;
	struct ibv_send_wr wr = { 0 };
	struct ibv_wc wc;

	repro_name = "mw2-invalidate-unbound-panic";
	if (argc < 2 || strcmp(argv[1], "--allow-panic"))
		skip("not run: on a stock kernel it takes the host down (--allow-panic runs it)");
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE | IBV_ACCESS_MW_BIND);
	mw = ibv_alloc_mw(a.pd, IBV_MW_TYPE_2);
	CHECK(mw, "ibv_alloc_mw");
	printf("%s: posting LOCAL_INV of unbound type 2 window rkey %#x\n", repro_name, mw->rkey);
	fflush(stdout);
	sync();
	wr.wr_id = 1;
	wr.opcode = IBV_WR_LOCAL_INV;
	wr.invalidate_rkey = mw->rkey;
	CHECK(!post_send1(a.qp, &wr, NULL, 0, 0), "post LOCAL_INV");
	wait_wc(a.cq, 1, &wc, 3000, "the LOCAL_INV");
	ok("a LOCAL_INV of a type 2 window never bound completed %s and the kernel lives",
	   ibv_wc_status_str(wc.status));
}
