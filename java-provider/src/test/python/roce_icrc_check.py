#!/usr/bin/env python3
"""Checks the ICRC of every RoCEv2 packet in pcap files with scapy's RoCE layer
(scapy.contrib.roce), an implementation independent of verbs4j's.

Prints one line per packet, "<file> <frame> <src> <dst> <ip id> <opcode> ok|bad|unsupported",
then "checked N bad M unsupported U". Exits 0 when every packet was checked and is good,
1 when one is bad or could not be checked, 2 on a usage error or when scapy is missing.

    roce_icrc_check.py FILE.pcap...
"""
import sys

try:
    from scapy.all import IP, UDP, rdpcap, raw
    from scapy.contrib.roce import BTH
except ImportError as e:
    print(f"scapy with its RoCE layer is not installed: {e}", file=sys.stderr)
    sys.exit(2)


def check(path):
    checked = bad = unsupported = 0
    for frame, packet in enumerate(rdpcap(path), start=1):
        if BTH not in packet:
            unsupported += 1
            print(f"{path} {frame} - - - - unsupported")
            continue
        bth = packet[BTH]
        if IP not in packet:
            # scapy's RoCE layer computes the ICRC of IPv4 packets only.
            unsupported += 1
            print(f"{path} {frame} - - - {bth.opcode} unsupported")
            continue
        wire = raw(packet[UDP].payload)[-4:]
        expected = bth.compute_icrc(raw(bth))
        good = wire == expected
        checked += 1
        bad += 0 if good else 1
        ip = packet[IP]
        print(f"{path} {frame} {ip.src} {ip.dst} {ip.id} {bth.opcode} {'ok' if good else 'bad'}")
    return checked, bad, unsupported


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    checked = bad = unsupported = 0
    for path in paths:
        c, b, u = check(path)
        checked, bad, unsupported = checked + c, bad + b, unsupported + u
    print(f"checked {checked} bad {bad} unsupported {unsupported}")
    return 0 if bad == 0 and unsupported == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
