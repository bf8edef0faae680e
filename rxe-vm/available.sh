#!/usr/bin/env bash
# Tells whether the rxe micro-VM can run on this machine: exit 0 if so, else
# exit 1 and print one line saying why (for a test runner's skip reason).
# "Can run" means the cache from fetch.sh is complete and its qemu starts, or
# the cache is missing but fetch.sh could fill it (root, apt, the mirror).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

unavailable() { echo "rxe VM unavailable: $*"; exit 1; }

[ "$(uname -m)" = x86_64 ] || unavailable "host is $(uname -m), the harness boots x86_64 guests"

need_kib=$(( ${RXEVM_MEMORY_MIB:-4096} * 1024 + 512 * 1024 ))
free_kib=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
[ "${free_kib:-0}" -ge "$need_kib" ] ||
    unavailable "only $((free_kib / 1024)) MiB of memory available, the guest needs $((need_kib / 1024))"

if rxevm_load_state; then
    "$QEMU_BINARY" --version >/dev/null 2>&1 || unavailable "$QEMU_BINARY does not start (run rxe-vm/fetch.sh)"
    missing=$(rxevm_missing_host_packages | tr '\n' ' ')
    [ -z "${missing// /}" ] || unavailable "host packages missing: $missing(run rxe-vm/fetch.sh)"
    exit 0
fi

# No usable cache yet: could fetch.sh make one?
[ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null ||
    unavailable "$RXEVM_WHY; fetching needs root or password-less sudo"
command -v apt-get >/dev/null && [ -x /usr/lib/apt/apt-helper ] ||
    unavailable "$RXEVM_WHY; fetching needs apt (Debian)"
mkdir -p "$RXEVM_CACHE" 2>/dev/null && [ -w "$RXEVM_CACHE" ] ||
    unavailable "$RXEVM_WHY; $RXEVM_CACHE is not writable"
mirror=$(rxevm_debian_mirror 2>/dev/null) ||
    unavailable "$RXEVM_WHY; no Debian archive in the apt configuration (set RXEVM_MIRROR)"
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
timeout 20 /usr/lib/apt/apt-helper -o APT::Sandbox::User=root \
    download-file "$mirror/dists/sid/Release" "$probe" >/dev/null 2>&1 ||
    unavailable "$RXEVM_WHY; the Debian mirror $mirror is not reachable"
exit 0
