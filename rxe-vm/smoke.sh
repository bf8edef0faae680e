#!/usr/bin/env bash
# One boot that shows the guest's rxe0 and checks that it is usable:
#   - ibv_devinfo -v (the rdma-core build from fetch.sh) and `rdma link`;
#   - rxe0 port 1 is ACTIVE;
#   - device_cap_flags_ex has bits 38, 39, 40 (IB_UVERBS_DEVICE_FLUSH_GLOBAL,
#     FLUSH_PERSISTENT, ATOMIC_WRITE in the kernel uapi <rdma/ib_user_verbs.h>;
#     rdma-core prints them as "Unknown flags");
#   - RC on-demand paging covers FLUSH and ATOMIC WRITE (6.16 reports them, 6.12 has no ODP);
#   - ibv_rc_pingpong, server and client on rxe0 with GID index 1, plain and ODP.
# Exits non-zero when any check fails.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" != --in-guest ]; then
    exec "$HERE/run.sh" -t "${RXEVM_SMOKE_TIMEOUT:-300}" -- bash "$HERE/smoke.sh" --in-guest
fi

passed=0
failed=0
check() { # description command...
    local what=$1; shift
    if "$@"; then
        echo "PASS $what"; passed=$((passed + 1))
    else
        echo "FAIL $what"; failed=$((failed + 1))
    fi
}

echo "== ibv_devinfo -v ($(command -v ibv_devinfo))"
devinfo=$(ibv_devinfo -v -d rxe0 2>&1) || true
echo "$devinfo"
echo "== rdma link"
links=$(rdma link 2>&1) || true
echo "$links"
echo "== checks"

from_rdma_core_build() { [[ $(command -v ibv_devinfo) == "$(dirname "$LD_LIBRARY_PATH")"/bin/* ]]; }
check "ibv_devinfo is the rdma-core build" from_rdma_core_build

port_active() { grep -q 'rxe0/1 state ACTIVE' <<<"$links"; }
check "rxe0 port 1 is ACTIVE" port_active

cap_bits_38_39_40() {
    local flags
    flags=$(awk '/device_cap_flags_ex:/ {print $2; exit}' <<<"$devinfo")
    [ -n "$flags" ] && (( (flags >> 38 & 7) == 7 ))
}
check "device_cap_flags_ex has FLUSH_GLOBAL, FLUSH_PERSISTENT, ATOMIC_WRITE (bits 38-40)" cap_bits_38_39_40

rc_odp_flush_atomic_write() {
    awk '/rc_odp_caps:/ {on = 1; next} /_odp_caps:/ {on = 0} on' <<<"$devinfo" |
        tr -d '\t' | sort | tr '\n' ' ' | grep -q 'SUPPORT_ATOMIC_WRITE .*SUPPORT_FLUSH'
}
check "RC ODP supports FLUSH and ATOMIC WRITE" rc_odp_flush_atomic_write

# Server and client in the same guest: they swap QP numbers over TCP on
# localhost, then the RC traffic runs over rxe0's ::ffff:10.x GID.
pingpong() { # extra options
    local server client=0 log=/tmp/pingpong-server.log
    timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -n 200 "$@" >"$log" 2>&1 &
    server=$!
    sleep 1
    timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -n 200 "$@" localhost || client=$?
    wait "$server" || { cat "$log"; return 1; }
    grep -h 'iters in' "$log"
    return "$client"
}
check "ibv_rc_pingpong over rxe0, GID index 1" pingpong
check "ibv_rc_pingpong with on-demand paging (-o)" pingpong -o

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
