/*
 * A responder answers a repeated RDMA READ again (IBTA 9.7.5.1.x duplicate
 * requests), whatever its length: the requester resends it when the answer
 * was lost. For a READ of length 0 rxe takes no rkey from the RETH and keeps
 * rkey 0 in the READ's responder resource; the repeat carries the
 * requester's rkey, fails rxe's check that a repeat asks for what the first
 * did, and is dropped. Sends one zero-length READ twice at the same PSN and
 * counts the answers.
 *
 * Finding: wire/RepeatedRequest#zeroLengthReadIsAnsweredAgain (from 6.12; the lossy link's RC
 * families meet it when base/RdmaReadTest#zeroLengthReadCompletes loses its answer)
 */
#define _GNU_SOURCE
#include "repro.h"
#include "roce.h"

int main(void)
{
	struct dev d;
	struct side s;
	struct wire w;
	struct ibv_mr *mr;
	uint8_t pkt[128];
	size_t n;
	int syn;

	repro_name = "read-zero-repeated";
	dev_open(&d);
	mr = wire_responder(&d, &s, 0);
	wire_open(&w);
	n = read_packet(&w, pkt, s.qp->qp_num, WIRE_PSN, (uintptr_t)mr->addr, mr->rkey, 0);
	wire_send(&w, pkt, n);
	syn = wire_ack(&w, WIRE_PSN, 1500);
	if (syn < 0)
		setup_error("the first zero-length READ was not answered");
	wire_send(&w, pkt, n);
	syn = wire_ack(&w, WIRE_PSN, 1500);
	if (syn < 0)
		defect("a zero-length READ sent again at its PSN was not answered (the first was)");
	ok("a zero-length READ sent again at its PSN was answered again (AETH syndrome %#x)", syn);
}
