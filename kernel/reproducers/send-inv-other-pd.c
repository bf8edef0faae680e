/*
 * A SEND_WITH_INV may only invalidate a window of the receiving queue
 * pair's protection domain (IBTA 10.6 and 10.6.7.2: a key is valid only in
 * its protection domain; the receive completes in error and the sender gets
 * an invalid request NAK). rxe_invalidate_mw compares no protection domain:
 * a peer invalidates a type 2 window of another domain of the responder's.
 *
 * Finding: access/RemoteAccessMatrixTest#sendInv.mw2.keyOfAnotherPd
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b, c, e;
	struct ibv_mr *target, *src, *rbuf;
	struct ibv_mw *mw;
	struct ibv_wc wc;
	uint32_t rkey;

	repro_name = "send-inv-other-pd";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE);
	/* a second pair in a second PD, whose queue pair c binds the window */
	pair_new(&d, &c, &e, IBV_QPT_RC, 0, ALL_REMOTE | IBV_ACCESS_MW_BIND);
	target = mr_new(c.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_MW_BIND);
	rbuf = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	mw = ibv_alloc_mw(c.pd, IBV_MW_TYPE_2);
	CHECK(mw, "ibv_alloc_mw");
	rkey = bind_window(c.qp, c.cq, mw, target, BUF_SIZE, IBV_ACCESS_REMOTE_WRITE);
	post_recv(b.qp, rbuf, 0, 64, 2);
	post_send_with_inv(a.qp, 3, rkey, src, 8);
	wait_wc(b.cq, 2, &wc, 3000, "the receive");
	if (wc.status == IBV_WC_SUCCESS)
		defect("a SEND_WITH_INV of a window of another PD completed its receive SUCCESS "
		       "(invalidated rkey %#x), not REM_INV_REQ_ERR", wc.invalidated_rkey);
	ok("a SEND_WITH_INV of another PD's window failed its receive: %s",
	   ibv_wc_status_str(wc.status));
}
