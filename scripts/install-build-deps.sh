#!/usr/bin/env bash
# Installs the Debian packages the build needs when they are missing: the libibverbs
# headers and library the ibverbs provider compiles and links against, librdmacm.so.1
# its connection-manager library links against, and a C++
# compiler for its JNI layer; and the two programs that check our packet captures
# independently of us: tshark (Wireshark's dissectors) and scapy (its RoCE layer computes
# the ICRC); and e2fsprogs, whose mkfs.ext4 and debugfs make and read the power-loss test's
# disk image without mounting it; and nvme-cli and fio, which the micro-VM's guest (it sees
# this machine's root) runs as the kernel's NVMe-oF host against verbs4j's target; and
# mmdebstrap, which makes the root (gcc-14 and the kernel's headers) that kernel/patches
# builds the patched rdma_rxe and siw modules in. Newer rdma-core headers (FLUSH) are fetched
# by the native module's own build.
# Does nothing when everything is present.
set -euo pipefail
needed=()
[ -f /usr/include/infiniband/verbs.h ] || needed+=(libibverbs-dev)
ls /usr/lib/*/libibverbs.so >/dev/null 2>&1 || needed+=(libibverbs-dev)
ls /usr/lib/*/librdmacm.so.1 >/dev/null 2>&1 || needed+=(librdmacm1)
ls /usr/lib/*/libibverbs/librxe-rdmav*.so >/dev/null 2>&1 || needed+=(ibverbs-providers)
command -v g++ >/dev/null 2>&1 || needed+=(g++)
command -v dpkg-deb >/dev/null 2>&1 || needed+=(dpkg)
command -v tshark >/dev/null 2>&1 || needed+=(tshark)
[ -f /usr/lib/python3/dist-packages/scapy/contrib/roce.py ] || needed+=(python3-scapy)
{ command -v debugfs && command -v mkfs.ext4; } >/dev/null 2>&1 || needed+=(e2fsprogs)
command -v nvme >/dev/null 2>&1 || needed+=(nvme-cli)
command -v fio >/dev/null 2>&1 || needed+=(fio)
command -v mmdebstrap >/dev/null 2>&1 || needed+=(mmdebstrap)
if [ ${#needed[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "missing build packages: ${needed[*]} (install them, e.g. with apt-get)" >&2
    exit 1
fi
echo "== installing ${needed[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
