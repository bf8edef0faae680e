/*
 * A receive that a SEND_WITH_INV completes reports the invalidated rkey and
 * IBV_WC_WITH_INV (bit 3 of the user wc_flags; IBTA 11.4.2.1 has the
 * completion say that an invalidation took place). rxe copies the kernel's
 * IB_WC_WITH_INVALIDATE (bit 2) into the user CQE, where bit 2 reads as
 * IBV_WC_IP_CSUM_OK.
 *
 * Finding: memwindow/Type2WindowTest#sendWithInvalidateRevokesWindowAndReportsRkey
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *target, *src, *rbuf;
	struct ibv_mw *mw;
	struct ibv_wc wc;
	uint32_t rkey;

	repro_name = "wc-with-inv-flag";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE | IBV_ACCESS_MW_BIND);
	target = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_MW_BIND);
	rbuf = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	mw = ibv_alloc_mw(b.pd, IBV_MW_TYPE_2);
	CHECK(mw, "ibv_alloc_mw");
	rkey = bind_window(b.qp, b.cq, mw, target, BUF_SIZE, IBV_ACCESS_REMOTE_WRITE);
	post_recv(b.qp, rbuf, 0, 64, 2);
	post_send_with_inv(a.qp, 3, rkey, src, 8);
	wait_wc(a.cq, 3, &wc, 3000, "the SEND_WITH_INV");
	if (wc.status != IBV_WC_SUCCESS)
		setup_error("the SEND_WITH_INV completed with %s", ibv_wc_status_str(wc.status));
	wait_wc(b.cq, 2, &wc, 3000, "the receive");
	if (wc.status != IBV_WC_SUCCESS)
		setup_error("the receive completed with %s", ibv_wc_status_str(wc.status));
	if (!(wc.wc_flags & IBV_WC_WITH_INV))
		defect("the invalidating receive reports wc_flags %#x: IBV_WC_WITH_INV (%#x) is "
		       "missing%s", wc.wc_flags, IBV_WC_WITH_INV,
		       (wc.wc_flags & IBV_WC_IP_CSUM_OK) ? ", IBV_WC_IP_CSUM_OK set instead" : "");
	if (wc.invalidated_rkey != rkey)
		defect("the invalidating receive reports rkey %#x, not %#x", wc.invalidated_rkey, rkey);
	ok("the invalidating receive reports IBV_WC_WITH_INV and rkey %#x", rkey);
}
