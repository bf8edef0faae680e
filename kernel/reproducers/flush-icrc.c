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
	struct dev d;
	struct side s;
	struct wire w;
	struct ibv_mr *mr;
	uint8_t pkt[128];
	size_t n;
	int syn;

	repro_name = "flush-icrc";
	dev_open(&d);
	if (!has_flush(&d))
		skip("the device offers no FLUSH (kernel before 6.2)");
	mr = wire_responder(&d, &s, IBV_ACCESS_FLUSH_GLOBAL);
	wire_open(&w);
	n = flush_packet(&w, pkt, s.qp->qp_num, WIRE_PSN, (uintptr_t)mr->addr, mr->rkey, 64, 0);
	wire_send(&w, pkt, n);
	syn = wire_ack(&w, WIRE_PSN, 1500);
	if (syn >= 0)
		ok("a FLUSH with the IBTA ICRC was answered (AETH syndrome %#x)", syn);
	n = flush_packet(&w, pkt, s.qp->qp_num, WIRE_PSN, (uintptr_t)mr->addr, mr->rkey, 64, 1);
	wire_send(&w, pkt, n);
	syn = wire_ack(&w, WIRE_PSN, 1500);
	if (syn < 0)
		setup_error("no FLUSH was answered, with the IBTA ICRC or rxe's");
	defect("a FLUSH with the IBTA ICRC was dropped; the same FLUSH with the ICRC over its "
	       "headers twice was answered (AETH syndrome %#x)", syn);
}
