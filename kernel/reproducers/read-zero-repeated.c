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
	struct wire_case c;
	uint8_t pkt[128];
	size_t n;

	repro_name = "read-zero-repeated";
	wire_case_open(&c, 0);
	n = read_packet(&c.w, pkt, c.s.qp->qp_num, WIRE_PSN, (uintptr_t)c.mr->addr, c.mr->rkey, 0);
	if (wire_ask(&c, pkt, n) < 0)
		setup_error("the first zero-length READ was not answered");
	if (wire_ask(&c, pkt, n) < 0)
		defect("a zero-length READ sent again at its PSN was not answered (the first was)");
	ok("a zero-length READ sent again at its PSN was answered again");
}
