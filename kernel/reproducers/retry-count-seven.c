/*
 * A requester whose queue pair has a retry count of 7 retries a request that
 * gets no answer 7 times, then completes it with RETRY_EXC_ERR: the count
 * is a number of retries (IBTA 9.7.6.1.3 and the QP attributes of 11.2.4.2),
 * and only the RNR retry count gives 7 the meaning "for ever" (9.7.5.2.8).
 * rxe counts the retry count down only below 7 (rxe_comp.c), so a requester
 * at 7, the value ibv_rc_pingpong and perftest set, resends for ever to a
 * peer that is gone: the run hangs instead of failing.
 *
 * The responder here is moved to the error state, where it answers nothing;
 * with the local ACK timeout at 10 (4.096 us << 10, about 4 ms) the 8 tries
 * take well under a second, so 5 s without a completion is the defect.
 *
 * Finding: - (no column waits out a retry count of 7; the lossy link's
 * ping-pong met it: a client gone after its last ACK was lost)
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *mr;
	struct ibv_qp_attr attr;
	struct ibv_send_wr wr = { 0 };
	struct ibv_wc wc;

	repro_name = "retry-count-seven";
	repro_timeout = 10;
	repro_retry_cnt = 7;
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE);
	mr = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_ERR;
	CHECK(!ibv_modify_qp(b.qp, &attr, IBV_QP_STATE), "move the responder to ERROR");
	wr.wr_id = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = (uintptr_t)mr->addr;
	wr.wr.rdma.rkey = mr->rkey;
	CHECK(!post_send1(a.qp, &wr, mr, 0, 8), "ibv_post_send");
	if (poll_one(a.cq, &wc, 5000))
		defect("a WRITE to a silent peer with retry_cnt 7 got no completion within 5 s (it is resent for ever)");
	if (wc.status != IBV_WC_RETRY_EXC_ERR)
		defect("a WRITE to a silent peer with retry_cnt 7 completed %s, not RETRY_EXC_ERR",
		       ibv_wc_status_str(wc.status));
	ok("a WRITE to a silent peer with retry_cnt 7: RETRY_EXC_ERR after its retries");
}
