/*
 * A FLUSH carries no payload: its ICRC covers the headers once (IBTA annex
 * A17 ICRC, 1.5 memory placement extensions FLUSH). rxe's opcode table gives
 * RC FLUSH no payload offset, so rxe takes the whole packet from the BTH for
 * the payload and runs the CRC over the headers twice, on what it sends and
 * on what it checks: a FLUSH from a peer that follows the specification fails
 * the ICRC check and is dropped. Sends one FLUSH with the IBTA ICRC; if no
 * ACK comes, the same FLUSH with rxe's form shows the setup works.
 *
 * Finding: - (the interop columns meet it; the soft provider sends rxe's ICRC with verbs4j.soft.rxeFlushIcrc)
 */
#define _GNU_SOURCE
#include "repro.h"
#include "roce.h"

int main(void)
{
	struct wire_case c;
	uint8_t pkt[128];
	size_t n;
	int syn;

	repro_name = "flush-icrc";
	wire_case_open(&c, 1);
	n = flush_packet(&c.w, pkt, c.s.qp->qp_num, WIRE_PSN, (uintptr_t)c.mr->addr, c.mr->rkey, 64, 0);
	syn = wire_ask(&c, pkt, n);
	if (syn >= 0)
		ok("a FLUSH with the IBTA ICRC was answered (AETH syndrome %#x)", syn);
	n = flush_packet(&c.w, pkt, c.s.qp->qp_num, WIRE_PSN, (uintptr_t)c.mr->addr, c.mr->rkey, 64, 1);
	syn = wire_ask(&c, pkt, n);
	if (syn < 0)
		setup_error("no FLUSH was answered, with the IBTA ICRC or rxe's");
	defect("a FLUSH with the IBTA ICRC was dropped; the same FLUSH with the ICRC over its "
	       "headers twice was answered (AETH syndrome %#x)", syn);
}
