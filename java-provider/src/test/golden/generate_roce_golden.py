#!/usr/bin/python3
"""Writes golden RoCEv2 packets for the wire codec tests.

Run with Debian's python3-scapy (apt-get install python3-scapy) from this directory:

    /usr/bin/python3 generate_roce_golden.py ../resources/golden/roce-v2-packets.txt

Every packet is a whole IP datagram: IPv4 or IPv6, UDP to port 4791, then the RoCEv2 packet
(BTH, extension headers, payload, pad, ICRC). Headers are laid out here from the IBTA layouts,
independently of the Java code under test.

The ICRC comes from two independent implementations that must agree:
  * scapy.contrib.roce (BTH.compute_icrc), which in scapy 2.5 handles IPv4 only and knows
    only the BTH and AETH, so the extension headers are given to it as raw payload bytes;
  * kernel_icrc() below, written from the Linux rxe rule (rxe_icrc.c): CRC-32 over 8 bytes
    of 0xFF, the IP header with TOS/TTL/checksum (IPv4) or traffic class/flow label/hop limit
    (IPv6) set to ones, the UDP header with checksum 0xFFFF, the BTH with byte 4 set to 0xFF,
    then the rest; stored as the complement, least significant byte first.
For IPv4 packets the script asserts that both agree; IPv6 packets use kernel_icrc() only.
"""

import ipaddress
import struct
import sys
import zlib

from scapy.compat import raw
from scapy.contrib.roce import BTH
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6

ROCE_PORT = 4791
V4_SRC, V4_DST = "192.0.2.10", "192.0.2.20"
V6_SRC, V6_DST = "2001:db8::10", "2001:db8::20"


def reth(va, rkey, length):
    return struct.pack("!QII", va, rkey, length)


def aeth(syndrome, msn):
    return struct.pack("!I", (syndrome << 24) | msn)


def atomic_eth(va, rkey, swap_add, compare):
    return struct.pack("!QIQQ", va, rkey, swap_add, compare)


def atomic_ack_eth(original):
    return struct.pack("!Q", original)


def imm_dt(imm):
    return struct.pack("!I", imm)


def ieth(rkey):
    return struct.pack("!I", rkey)


def deth(qkey, src_qp):
    return struct.pack("!II", qkey, src_qp & 0xFFFFFF)


def feth(placement_type, selectivity_level):
    # rxe rxe_hdr.h: placement type in bits 3..0, selectivity level in bits 5..4
    return struct.pack("!I", ((selectivity_level << 4) & 0x30) | (placement_type & 0x0F))


def bth_bytes(opcode, psn, dqpn, pad, solicited=0, ackreq=0, pkey=0xFFFF, fecn=0, becn=0, migreq=0):
    flags = (solicited << 7) | (migreq << 6) | (pad << 4)
    byte4 = (fecn << 7) | (becn << 6)
    return struct.pack("!BBHII", opcode, flags, pkey, (byte4 << 24) | dqpn, (ackreq << 31) | psn)


def kernel_icrc(ip_header, udp_header, roce_without_icrc):
    """The rxe rule, on raw header bytes; returns the 4 ICRC bytes as they go on the wire."""
    ip = bytearray(ip_header)
    if ip[0] >> 4 == 4:
        ip[1] = 0xFF                     # TOS
        ip[8] = 0xFF                     # TTL
        ip[10:12] = b"\xff\xff"          # header checksum
    else:
        ip[0] |= 0x0F                    # traffic class, high nibble
        ip[1:4] = b"\xff\xff\xff"        # traffic class low nibble + flow label
        ip[7] = 0xFF                     # hop limit
    udp = bytearray(udp_header)
    udp[6:8] = b"\xff\xff"               # UDP checksum
    bth = bytearray(roce_without_icrc[:12])
    bth[4] = 0xFF                        # FECN, BECN, Resv6a
    crc = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth) + roce_without_icrc[12:])
    return struct.pack("<I", crc & 0xFFFFFFFF)


def build(version, ip_id, sport, opcode, psn, dqpn, ext, payload, **bth_fields):
    pad = -len(payload) & 3
    bth = bth_bytes(opcode, psn, dqpn, pad, **bth_fields)
    roce_body = ext + payload + b"\x00" * pad
    if version == 4:
        # scapy's BTH appends and computes the ICRC in post_build; set fecn/becn as in bth
        scapy_bth = BTH(opcode=opcode, solicited=bth_fields.get("solicited", 0),
                        migreq=bth_fields.get("migreq", 0), padcount=pad,
                        pkey=bth_fields.get("pkey", 0xFFFF), fecn=bth_fields.get("fecn", 0),
                        becn=bth_fields.get("becn", 0), dqpn=dqpn,
                        ackreq=bth_fields.get("ackreq", 0), psn=psn)
        datagram = raw(IP(src=V4_SRC, dst=V4_DST, id=ip_id, flags="DF", ttl=64, tos=0)
                       / UDP(sport=sport, dport=ROCE_PORT, chksum=0)
                       / scapy_bth / roce_body)
        ip_header, udp_header, roce = datagram[:20], datagram[20:28], datagram[28:]
        assert roce[:12] == bth, "scapy BTH differs from the IBTA layout"
        expected = kernel_icrc(ip_header, udp_header, roce[:-4])
        assert roce[-4:] == expected, "scapy ICRC %s != kernel rule %s" % (roce[-4:].hex(), expected.hex())
        return datagram
    roce_without_icrc = bth + roce_body
    # scapy computes the IPv6 UDP checksum (mandatory for IPv6) once the ICRC placeholder is in
    placeholder = raw(IPv6(src=V6_SRC, dst=V6_DST, tc=0, fl=0, hlim=64)
                      / UDP(sport=sport, dport=ROCE_PORT) / (roce_without_icrc + b"\x00" * 4))
    icrc = kernel_icrc(placeholder[:40], placeholder[40:48], roce_without_icrc)
    return raw(IPv6(src=V6_SRC, dst=V6_DST, tc=0, fl=0, hlim=64)
               / UDP(sport=sport, dport=ROCE_PORT) / (roce_without_icrc + icrc))


def packets():
    send_payload = b"hello, rxe!"                       # 11 bytes: pad 1
    write_payload = bytes(range(64))
    read_payload = bytes((i * 7) & 0xFF for i in range(30))  # 30 bytes: pad 2
    for version in (4, 6):
        v = "v%d" % version
        yield ("rc_send_only_" + v, version, 0, 0xC001, 0x04, 0x000010, 0x000011, b"", send_payload,
               dict(solicited=1, ackreq=1))
        yield ("rc_rdma_write_first_" + v, version, 0x1234, 0xC002, 0x06, 0xFFFFFF, 0x000012,
               reth(0x00007F0012345000, 0x00ABCDEF, 4096), write_payload, {})
        yield ("rc_rdma_read_request_" + v, version, 0, 0xC003, 0x0C, 0x123456, 0x000013,
               reth(0x1000, 0x0000BEEF, 30), b"", dict(ackreq=1))
        yield ("rc_rdma_read_response_only_" + v, version, 0x7A5E, 0xC004, 0x10, 0x123456, 0x000014,
               aeth(0x1F, 0x000042), read_payload, {})
        yield ("rc_acknowledge_" + v, version, 0xBEEF, 0xC005, 0x11, 0x000010, 0x000015,
               aeth(0x1F, 0x000001), b"", dict(becn=1))
        yield ("rc_nak_remote_access_" + v, version, 0, 0xC006, 0x11, 0x000020, 0x000016,
               aeth(0x62, 0x000007), b"", {})
        yield ("rc_compare_swap_" + v, version, 0, 0xC007, 0x13, 0x000030, 0x000017,
               atomic_eth(0x2000, 0x0000CAFE, 0x1111222233334444, 0x5555666677778888), b"", dict(ackreq=1))
        yield ("rc_atomic_acknowledge_" + v, version, 0xFFFF, 0xC008, 0x12, 0x000030, 0x000018,
               aeth(0x1F, 0x000009) + atomic_ack_eth(0x0123456789ABCDEF), b"", {})
        yield ("rc_send_only_with_inv_" + v, version, 0x0102, 0xC009, 0x17, 0x000040, 0x000019,
               ieth(0x00001234), b"inv", dict(solicited=1, ackreq=1))
        yield ("rc_rdma_write_only_with_imm_" + v, version, 0, 0xC00A, 0x0B, 0x000050, 0x00001A,
               reth(0x3000, 0x00000777, 5) + imm_dt(0xDEADBEEF), b"12345", dict(ackreq=1, fecn=1))
        yield ("ud_send_only_with_imm_" + v, version, 0, 0xC00B, 0x65, 0x000060, 0x00001B,
               deth(0x11111111, 0x00ABCD) + imm_dt(0x00C0FFEE), b"datagram", dict(pkey=0x8001))
        yield ("rc_flush_" + v, version, 0x0001, 0xC00C, 0x1C, 0x000070, 0x00001C,
               feth(1, 1) + reth(0x4000, 0x00000888, 0), b"", dict(ackreq=1))
        yield ("rc_atomic_write_" + v, version, 0, 0xC00D, 0x1D, 0x000080, 0x00001D,
               reth(0x5000, 0x00000999, 8), struct.pack("!Q", 0xFEEDFACECAFEBEEF), dict(ackreq=1))


def main(out_path):
    lines = [
        "# RoCEv2 golden packets, written by src/test/golden/generate_roce_golden.py (scapy %s)."
        % __import__("scapy").__version__,
        "# Columns: name ip-version src dst udp-sport udp-dport ipv4-id hex-of-the-whole-IP-datagram",
        "# IPv4: TOS 0, TTL 64, DF, UDP checksum 0. IPv6: traffic class 0, flow label 0, hop limit 64,",
        "# UDP checksum computed. The ICRC of IPv4 packets is checked against scapy.contrib.roce.",
    ]
    for name, version, ip_id, sport, opcode, psn, dqpn, ext, payload, fields in packets():
        datagram = build(version, ip_id, sport, opcode, psn, dqpn, ext, payload, **fields)
        src, dst = (V4_SRC, V4_DST) if version == 4 else (V6_SRC, V6_DST)
        ipaddress.ip_address(src)
        lines.append("%s %d %s %s %d %d %d %s" % (name, version, src, dst, sport, ROCE_PORT,
                                                 ip_id if version == 4 else 0, datagram.hex()))
    with open(out_path, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "roce-v2-packets.txt")
