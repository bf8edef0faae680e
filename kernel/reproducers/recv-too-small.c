/*
 * A SEND longer than the receive it lands in is an invalid request: the
 * responder NAKs it as such (IBTA 9.7.5.2.4, 9.7.6.1.3; the receive completes
 * LOC_LEN_ERR, the sender REM_INV_REQ_ERR). rxe's copy reports the overflow
 * as EINVAL, which its responder maps to a remote operational error
 * (REM_OP_ERR at the sender, LOC_QP_OP_ERR for the receive).
 *
 * Finding: errors/ReceiveLengthTest#receiveTooSmallFailsBothSides
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *src, *rbuf;
	struct ibv_send_wr wr = { 0 };
	struct ibv_wc wc;

	repro_name = "recv-too-small";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE);
	rbuf = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	post_recv(b.qp, rbuf, 0, 64, 1);
	wr.wr_id = 2;
	wr.opcode = IBV_WR_SEND;
	CHECK(!post_send1(a.qp, &wr, src, 0, 128), "post SEND");
	wait_wc(a.cq, 2, &wc, 3000, "the SEND");
	if (wc.status != IBV_WC_REM_INV_REQ_ERR)
		defect("a 128-byte SEND to a 64-byte receive completed %s at the sender, "
		       "not REM_INV_REQ_ERR", ibv_wc_status_str(wc.status));
	wait_wc(b.cq, 1, &wc, 3000, "the receive");
	if (wc.status != IBV_WC_LOC_LEN_ERR)
		defect("a 64-byte receive given 128 bytes completed %s, not LOC_LEN_ERR",
		       ibv_wc_status_str(wc.status));
	ok("a 128-byte SEND to a 64-byte receive: REM_INV_REQ_ERR, the receive LOC_LEN_ERR");
}
