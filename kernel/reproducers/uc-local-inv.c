/*
 * IBTA allows LOCAL_INV on a UC queue pair as on RC (10.6.7.2 LOCAL_INV is
 * a local operation of any connected service). rdma-core's rxe provider
 * refuses ibv_create_qp_ex of a UC queue pair whose send_ops_flags include
 * IBV_QP_EX_WITH_LOCAL_INV with EOPNOTSUPP, while it takes BIND_MW and
 * SEND_WITH_INV for UC. This is the user-space provider's check, not the
 * kernel's.
 *
 * Finding: base/QueuePairCreationTest#ucQueuePairStartsInResetAndTakesInit
 */
#include "repro.h"

int main(void)
{
	struct dev d;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_qp_init_attr_ex init = {
		.qp_type = IBV_QPT_UC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_LOCAL_INV,
	};

	repro_name = "uc-local-inv";
	dev_open(&d);
	pd = ibv_alloc_pd(d.ctx);
	CHECK(pd, "ibv_alloc_pd");
	cq = cq_new(&d);
	init.pd = pd;
	init.send_cq = cq;
	init.recv_cq = cq;
	qp = ibv_create_qp_ex(d.ctx, &init);
	if (!qp)
		defect("ibv_create_qp_ex of a UC queue pair with LOCAL_INV failed: %s",
		       strerror(errno));
	ok("a UC queue pair with LOCAL_INV was created");
}
