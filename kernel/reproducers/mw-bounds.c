/*
 * A memory window bounds what a remote peer reaches through its rkey (IBTA
 * 10.6.7.2 and 9.7.5.2.4: a request outside the window's range is a
 * remote access error). rxe checks a window's request against the window's
 * region instead, so a WRITE to bytes of the region outside the window
 * succeeds. Here: a 4 KiB region, a type 1 window over bytes 1024..2047 of
 * it, and an RDMA WRITE of 8 bytes through the window at byte 512.
 *
 * Finding: access/RemoteAccessMatrixTest#write.mw1.firstByteBeforeWindow
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *target, *src;
	struct ibv_mw *mw;
	struct ibv_mw_bind bind = { 0 };
	struct ibv_send_wr wr = { 0 };
	struct ibv_wc wc;
	uint8_t *bytes;

	repro_name = "mw-bounds";
	dev_open(&d);
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE | IBV_ACCESS_MW_BIND);
	target = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_MW_BIND);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	memset(src->addr, 0xab, 8);
	mw = ibv_alloc_mw(b.pd, IBV_MW_TYPE_1);
	CHECK(mw, "ibv_alloc_mw");
	bind.wr_id = 1;
	bind.send_flags = IBV_SEND_SIGNALED;
	bind.bind_info.mr = target;
	bind.bind_info.addr = (uintptr_t)target->addr + 1024;
	bind.bind_info.length = 1024;
	bind.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
	CHECK(!ibv_bind_mw(b.qp, mw, &bind), "ibv_bind_mw");
	wait_wc(b.cq, 1, &wc, 2000, "the bind");
	if (wc.status != IBV_WC_SUCCESS)
		setup_error("the bind completed with %s", ibv_wc_status_str(wc.status));

	wr.wr_id = 2;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = (uintptr_t)target->addr + 512;
	wr.wr.rdma.rkey = mw->rkey;
	CHECK(!post_send1(a.qp, &wr, src, 0, 8), "ibv_post_send");
	wait_wc(a.cq, 2, &wc, 3000, "the WRITE");
	bytes = target->addr;
	if (wc.status == IBV_WC_SUCCESS)
		defect("a WRITE through a window over bytes 1024..2047 to byte 512 completed SUCCESS "
		       "(byte 512 is now %#x), not REM_ACCESS_ERR", bytes[512]);
	if (wc.status != IBV_WC_REM_ACCESS_ERR)
		defect("a WRITE outside its window completed %s, not REM_ACCESS_ERR",
		       ibv_wc_status_str(wc.status));
	ok("a WRITE through a window to a byte of its region outside the window: REM_ACCESS_ERR");
}
