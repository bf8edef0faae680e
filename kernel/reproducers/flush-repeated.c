/*
 * A responder answers a repeated FLUSH again, as it does a repeated READ or
 * atomic (IBTA 9.7.5.1.x duplicate requests; 1.5 memory placement
 * extensions oA19-14, oA19-15): the requester resends it when the answer was
 * lost. rxe keeps no PSN in the responder resource of a FLUSH, finds none for
 * the repeated one and drops it. Sends one FLUSH twice at the same PSN (with
 * whichever ICRC rxe takes, see flush-icrc) and counts the answers.
 *
 * Finding: wire/RepeatedRequest#flushIsAnsweredAgain
 */
#define _GNU_SOURCE
#include "repro.h"
#include "roce.h"

int main(void)
{
	struct wire_case c;
	uint8_t pkt[128];
	size_t n;
	int form, syn;

	repro_name = "flush-repeated";
	wire_case_open(&c, 1);
	for (form = 0; form < 2; form++) {
		n = flush_packet(&c.w, pkt, c.s.qp->qp_num, WIRE_PSN, (uintptr_t)c.mr->addr, c.mr->rkey, 64, form);
		syn = wire_ask(&c, pkt, n);
		if (syn >= 0)
			break;
	}
	if (syn < 0)
		setup_error("the first FLUSH was not answered, with the IBTA ICRC or rxe's");
	syn = wire_ask(&c, pkt, n);
	if (syn < 0)
		defect("a FLUSH sent again at its PSN was not answered (the first was)");
	ok("a FLUSH sent again at its PSN was answered again (AETH syndrome %#x)", syn);
}
