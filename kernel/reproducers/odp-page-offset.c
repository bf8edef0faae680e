/*
 * An RDMA WRITE into an on-demand (ODP) region lands at the address it names
 * (IBTA 9.4.x placement; ODP changes when pages are mapped, not where data
 * goes). rxe's ODP copy drops the offset inside the page: 64 bytes written at
 * byte 512 of a page land at byte 0 of it.
 *
 * Finding: odp/OdpTrafficTest#writeInsidePageLandsAtItsOffset
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct side a, b;
	struct ibv_mr *target, *src;
	struct ibv_send_wr wr = { 0 };
	struct ibv_wc wc;
	uint8_t *t;

	repro_name = "odp-page-offset";
	dev_open(&d);
	if (!(d.attr.odp_caps.general_caps & IBV_ODP_SUPPORT) ||
	    !(d.attr.odp_caps.per_transport_caps.rc_odp_caps & IBV_ODP_SUPPORT_WRITE))
		skip("the device offers no RC ODP WRITE (kernel before 6.16)");
	pair_new(&d, &a, &b, IBV_QPT_RC, 0, ALL_REMOTE);
	target = mr_new(b.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_ON_DEMAND);
	src = mr_new(a.pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	memset(src->addr, 0x5a, 64);
	wr.wr_id = 1;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = (uintptr_t)target->addr + 512;
	wr.wr.rdma.rkey = target->rkey;
	CHECK(!post_send1(a.qp, &wr, src, 0, 64), "post WRITE");
	wait_wc(a.cq, 1, &wc, 3000, "the WRITE");
	if (wc.status != IBV_WC_SUCCESS)
		setup_error("the WRITE completed %s", ibv_wc_status_str(wc.status));
	t = target->addr;
	if (t[512] != 0x5a || t[575] != 0x5a) {
		if (t[0] == 0x5a)
			defect("64 bytes written at byte 512 of an ODP region landed at byte 0");
		defect("64 bytes written at byte 512 of an ODP region are not there (byte 512: %#x)",
		       t[512]);
	}
	if (t[0] != 0)
		defect("a write at byte 512 of an ODP region also changed byte 0");
	ok("64 bytes written at byte 512 of an ODP region landed there");
}
