/*
 * What the wire reproducers share: a responder queue pair on rxe0 aimed at
 * the peer end of the VM's veth pair (10.9.0.2 in network namespace 'peer'),
 * and, in that namespace, a raw IPv4 socket that sends it hand-made RoCEv2
 * packets with an ICRC computed here, and a UDP socket on port 4791 that
 * takes its answers. Include after repro.h. Needs root (setns, raw socket).
 */
#ifndef ROCE_H
#define ROCE_H

#include <fcntl.h>
#include <sched.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#define ROCE_PORT 4791
#define LOCAL_IP "10.9.0.1"
#define PEER_IP "10.9.0.2"
#define PEER_NETNS "/var/run/netns/peer"
#define PEER_QPN 0x000123
/*
 * The PSN the wire reproducers start at: not 0, which is where an unused
 * responder resource of rxe points and would match by chance.
 */
#define WIRE_PSN 0x001000

#define OP_RC_READ_REQUEST 0x0c
#define OP_RC_READ_RESPONSE_ONLY 0x10
#define OP_RC_ACK 0x11
#define OP_RC_FLUSH 0x1c

struct wire {
	int raw;	/* sends whole IPv4 packets from PEER_IP */
	int udp;	/* PEER_IP:4791, where the responder's answers arrive */
	struct in_addr src, dst;
};

/* CRC-32 (IEEE, reflected) over len bytes, continuing from crc (not inverted). */
static inline uint32_t crc32_step(uint32_t crc, const uint8_t *p, size_t len)
{
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
	}
	return crc;
}

/*
 * The RoCEv2 ICRC of an IPv4 packet 'pkt' (IP header first) of 'len' bytes,
 * the last 4 of which are the ICRC. IBTA annex A17: CRC-32 over 8 bytes of
 * ones (the LRH), the IP header with TOS, TTL and checksum as ones, the UDP
 * header with its checksum as ones, the BTH with its reserved byte (FECN,
 * BECN) as ones, then the rest of the packet. 'hdr_len' is the length of the
 * transport headers (BTH and extended headers): with 'again' the CRC then
 * runs once more over those headers before the payload, as rxe's opcode
 * table makes it do for a FLUSH, which gives it no payload offset.
 */
static inline uint32_t icrc(const uint8_t *pkt, size_t len, size_t hdr_len, int again)
{
	uint8_t ones[8], pseudo[20 + 8 + 12];
	uint32_t crc = 0xffffffff;
	const uint8_t *bth = pkt + 28;

	memset(ones, 0xff, sizeof(ones));
	crc = crc32_step(crc, ones, sizeof(ones));
	memcpy(pseudo, pkt, sizeof(pseudo));
	pseudo[1] = 0xff;			/* TOS */
	pseudo[8] = 0xff;			/* TTL */
	pseudo[10] = pseudo[11] = 0xff;		/* IP checksum */
	pseudo[26] = pseudo[27] = 0xff;		/* UDP checksum */
	pseudo[28 + 4] = 0xff;			/* BTH resv8a */
	crc = crc32_step(crc, pseudo, sizeof(pseudo));
	crc = crc32_step(crc, bth + 12, hdr_len - 12);
	if (again)
		crc = crc32_step(crc, bth, len - 28 - 4);
	else
		crc = crc32_step(crc, bth + hdr_len, len - 28 - hdr_len - 4);
	return ~crc;
}

static inline void put16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v; }
static inline void put24(uint8_t *p, uint32_t v) { p[0] = v >> 16; p[1] = v >> 8; p[2] = v; }
static inline void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }
static inline void put64(uint8_t *p, uint64_t v) { put32(p, v >> 32); put32(p + 4, v); }

/* IPv4 + UDP + BTH into pkt for a packet of 'len' bytes; returns the BTH's address. */
static inline uint8_t *headers(struct wire *w, uint8_t *pkt, size_t len, uint8_t opcode,
			uint32_t dqpn, uint32_t psn, int ack_req)
{
	uint32_t sum = 0;
	int i;

	memset(pkt, 0, len);
	pkt[0] = 0x45;
	put16(pkt + 2, len);
	put16(pkt + 4, 0x5a5a);		/* the ID, not 0: a raw socket replaces 0 */
	put16(pkt + 6, 0x4000);		/* DF */
	pkt[8] = 64;
	pkt[9] = IPPROTO_UDP;
	memcpy(pkt + 12, &w->src, 4);
	memcpy(pkt + 16, &w->dst, 4);
	for (i = 0; i < 20; i += 2)
		sum += pkt[i] << 8 | pkt[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	put16(pkt + 10, ~sum);
	put16(pkt + 20, 0xc000);
	put16(pkt + 22, ROCE_PORT);
	put16(pkt + 24, len - 20);
	pkt[28] = opcode;
	put16(pkt + 30, 0xffff);	/* default P_Key */
	put24(pkt + 33, dqpn);
	pkt[36] = ack_req ? 0x80 : 0;
	put24(pkt + 37, psn);
	return pkt + 28;
}

/* A FLUSH (BTH, FETH: range, global visibility; RETH) into pkt; returns its length. */
static inline size_t flush_packet(struct wire *w, uint8_t *pkt, uint32_t dqpn, uint32_t psn,
			   uint64_t va, uint32_t rkey, uint32_t len, int rxe_icrc)
{
	size_t n = 20 + 8 + 12 + 4 + 16 + 4;
	uint8_t *bth = headers(w, pkt, n, OP_RC_FLUSH, dqpn, psn, 1);
	uint32_t c;

	put32(bth + 12, 0 << 4 | 1);	/* selectivity: range; placement: global */
	put64(bth + 16, va);
	put32(bth + 24, rkey);
	put32(bth + 28, len);
	c = icrc(pkt, n, 32, rxe_icrc);
	memcpy(pkt + n - 4, &c, 4);	/* the ICRC goes out least significant byte first */
	return n;
}

/* An RDMA READ request (BTH, RETH) into pkt; returns its length. */
static inline size_t read_packet(struct wire *w, uint8_t *pkt, uint32_t dqpn, uint32_t psn,
			  uint64_t va, uint32_t rkey, uint32_t len)
{
	size_t n = 20 + 8 + 12 + 16 + 4;
	uint8_t *bth = headers(w, pkt, n, OP_RC_READ_REQUEST, dqpn, psn, 1);
	uint32_t c;

	put64(bth + 12, va);
	put32(bth + 20, rkey);
	put32(bth + 24, len);
	c = icrc(pkt, n, 28, 0);
	memcpy(pkt + n - 4, &c, 4);
	return n;
}

static inline void wire_open(struct wire *w)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(ROCE_PORT) };
	struct timeval tv = { 0, 300000 };
	int ns = open(PEER_NETNS, O_RDONLY);

	if (ns < 0)
		setup_error("no network namespace %s (run in rxe-vm with -n veth)", PEER_NETNS);
	CHECK(!setns(ns, CLONE_NEWNET), "setns to the peer namespace");
	close(ns);
	inet_pton(AF_INET, PEER_IP, &w->src);
	inet_pton(AF_INET, LOCAL_IP, &w->dst);
	w->raw = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	CHECK(w->raw >= 0, "raw socket");
	w->udp = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(w->udp >= 0, "UDP socket");
	a.sin_addr = w->src;
	CHECK(!bind(w->udp, (struct sockaddr *)&a, sizeof(a)), "bind to " PEER_IP ":4791");
	CHECK(!setsockopt(w->udp, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), "SO_RCVTIMEO");
}

static inline void wire_send(struct wire *w, const uint8_t *pkt, size_t len)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr = w->dst };

	CHECK(sendto(w->raw, pkt, len, 0, (struct sockaddr *)&a, sizeof(a)) == (ssize_t)len,
	      "sendto");
}

/*
 * Waits up to 'ms' for the answer to the request at 'psn' to PEER_QPN: an ACK,
 * or the RDMA READ Response Only without payload that answers a FLUSH or an
 * ATOMIC WRITE (IBTA 1.5). Returns its AETH syndrome, or -1 when none came.
 */
static inline int wire_ack(struct wire *w, uint32_t psn, int ms)
{
	uint8_t b[2048];
	ssize_t n;
	int waited;

	for (waited = 0; waited < ms; waited += 300) {
		n = recv(w->udp, b, sizeof(b), 0);
		if (n < 16)
			continue;
		if ((b[0] != OP_RC_ACK && b[0] != OP_RC_READ_RESPONSE_ONLY) ||
		    (uint32_t)(b[5] << 16 | b[6] << 8 | b[7]) != PEER_QPN ||
		    (uint32_t)(b[9] << 16 | b[10] << 8 | b[11]) != psn)
			continue;
		return b[12];
	}
	return -1;
}

/*
 * A responder queue pair on rxe0 in 'a' (a PD of its own, RTS) aimed at PEER_QPN
 * at the peer's GID, and a 4 KiB region the peer may read and write, with
 * 'extra' (IBV_ACCESS_FLUSH_GLOBAL, or 0 on kernels without FLUSH) granted by
 * both; call before wire_open.
 */
static inline struct ibv_mr *wire_responder(struct dev *d, struct side *s, int extra)
{
	union ibv_gid peer = { 0 };
	struct ibv_pd *pd = ibv_alloc_pd(d->ctx);

	CHECK(pd, "ibv_alloc_pd");
	side_new(d, s, pd, IBV_QPT_RC, 0);
	peer.raw[10] = peer.raw[11] = 0xff;
	inet_pton(AF_INET, PEER_IP, &peer.raw[12]);
	repro_rq_psn = WIRE_PSN;
	qp_connect(s->qp, PEER_QPN, &peer, ALL_REMOTE | extra);
	return mr_new(pd, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		      IBV_ACCESS_REMOTE_READ | extra);
}

/*
 * What a wire reproducer starts from: rxe0 open, a responder queue pair and its region
 * (granting FLUSH when 'flush', which skips the program on a kernel without FLUSH), and
 * the peer's sockets.
 */
struct wire_case {
	struct dev d;
	struct side s;
	struct wire w;
	struct ibv_mr *mr;
};

static inline void wire_case_open(struct wire_case *c, int flush)
{
	dev_open(&c->d);
	if (flush && !has_flush(&c->d))
		skip("the device offers no FLUSH (kernel before 6.2)");
	c->mr = wire_responder(&c->d, &c->s, flush ? IBV_ACCESS_FLUSH_GLOBAL : 0);
	wire_open(&c->w);
}

/* Sends the request 'pkt' of 'n' bytes; returns the AETH syndrome of its answer, or -1. */
static inline int wire_ask(struct wire_case *c, const uint8_t *pkt, size_t n)
{
	wire_send(&c->w, pkt, n);
	return wire_ack(&c->w, WIRE_PSN, 1500);
}

#endif
