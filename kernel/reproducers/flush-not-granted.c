/*
 * A FLUSH of a placement type the responder's queue pair does not grant
 * (its access flags lack IBV_ACCESS_FLUSH_GLOBAL, the region's have it) is a
 * remote access error (IBTA 1.5 memory placement extensions: the FLUSH needs
 * the right on the queue pair and on the key; NAK remote access error).
 * rxe's check of the queue pair's access takes such a FLUSH for an opcode the
 * queue pair does not support and NAKs it as an invalid request.
 *
 * Finding: flush/FlushPlacementTest#flushOfPlacementTheQueuePairDoesNotGrantIsRemoteAccessError
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *target;
	struct ibv_wc wc;

	repro_name = "flush-not-granted";
	dev_open(&d);
	if (!has_flush(&d))
		skip("the device offers no FLUSH (kernel before 6.2)");
	pair_new(&d, &a, &b, IBV_QPT_RC, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_FLUSH,
		 ALL_REMOTE);
	target = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_FLUSH_GLOBAL);
	CHECK(!post_flush(a.qpx, 1, target->rkey, (uintptr_t)target->addr, 64,
			  IBV_FLUSH_GLOBAL, IBV_FLUSH_RANGE), "post FLUSH");
	wait_wc(a.cq, 1, &wc, 3000, "the FLUSH");
	if (wc.status != IBV_WC_REM_ACCESS_ERR)
		defect("a FLUSH the responder's queue pair does not grant completed %s, "
		       "not REM_ACCESS_ERR", ibv_wc_status_str(wc.status));
	ok("a FLUSH the responder's queue pair does not grant: REM_ACCESS_ERR");
}
