#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -n veth): a soft device made on an interface
# (soft0=netdev:veth1, in namespace 'peer') against the kernel's rxe on the same interface.
# rxe0 is on veth0 in the root namespace and owns UDP 4791 there; veth1 (10.9.0.2) gets IPv6
# with a global address (fd00:9::2) first.
# veth1 gets a second IPv4 address (10.9.1.2) for the run.
#  1. a kernel rxe on veth1 inside namespace peer (rxe1): its GID table, as ibv_devinfo -v
#     prints it, is the reference; rxe1 is deleted before the soft device binds;
#  2. the soft device's table (verbs4j devices) equals it, index for index;
#  3. ibv_rc_pingpong on rxe0 against verbs4j pingpong --compat on the soft device, both
#     ways, on GID 0 (link-local) and GID 1 (IPv4-mapped);
#  4. veth1's MTU (1500 -> 1000 -> 1500) and its state (down, up) show in the soft device's
#     active MTU and async events (verbs4j devices --watch).
# One line per check, 'ok   NAME' or 'FAIL NAME', then a tally, into target/vm/netdev.txt;
# logs in target/vm/netdev/. Exit status 1 when a check failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=target/vm
mkdir -p "$out/netdev"
source scripts/vm-guest-env.sh
results=$out/netdev.txt
: > "$results"
# Logs are written in the guest's own /tmp (see has_line) and copied to the share at the end.
work=$(mktemp -d /tmp/netdev.XXXXXX)
start=$SECONDS
passed=0
failed=0
check() { # $1 = name, the rest a command that succeeds when the check passes
    local name=$1
    shift
    if "$@"; then
        echo "ok   $name" | tee -a "$results"
        passed=$((passed + 1))
    else
        echo "FAIL $name" | tee -a "$results"
        failed=$((failed + 1))
    fi
}
gid_lines() { # the GID lines of ibv_devinfo -v (or verbs4j devices) output $1, for device $2
    awk -v dev="$2" '/^hca_id:/ { on = ($2 == dev) } on && /GID\[/ { sub(/^[ \t]+/, ""); print }' "$1"
}

ipv6_on || echo "IPv6 on the veth pair did not settle"
ip netns exec peer ip link set veth1 mtu 1500
# A second IPv4 address: the order of two is the kernel's list's, which the table keeps.
ip netns exec peer ip addr add 10.9.1.2/24 dev veth1

# 1. The kernel's table for an rxe on veth1, in the namespace that holds veth1 (rxe has made
# its sockets per network namespace since Linux 5.x; 7.3 allows it).
kernel=$work/rxe1-devinfo.txt
if ip netns exec peer rdma link add rxe1 type rxe netdev veth1 > "$work/rxe1-add.log" 2>&1; then
    ip netns exec peer ibv_devinfo -v -d rxe1 > "$kernel" 2>&1
    ip netns exec peer rdma link delete rxe1
    check kernel-rxe-in-namespace test -s "$kernel"
    reference="rxe1 on veth1 in namespace peer"
else
    # Without per-namespace rxe, rxe0's table on veth0 has the same shapes (link-local,
    # 10.9.0.1, fd00:9::1): compared shape for shape instead of address for address.
    echo "no rxe in namespace peer: $(cat "$work/rxe1-add.log")"
    ibv_devinfo -v -d rxe0 > "$kernel" 2>&1
    sed -i 's/^hca_id:\trxe0/hca_id:\trxe1/' "$kernel"
    reference="rxe0 on veth0 (no rxe in a namespace here)"
    check kernel-rxe-in-namespace false
fi
gid_lines "$kernel" rxe1 > "$work/kernel-gids.txt"
echo "kernel table ($reference):"
cat "$work/kernel-gids.txt"

# 2. The soft device's table. Every verbs4j command of this script runs in one JVM in namespace
# peer (batch_run), whose soft provider has soft0 on veth1.
export JAVA_TOOL_OPTIONS="-Dverbs4j.soft.devices=soft0=netdev:veth1"
batch_run peer "$work/devices.log" devices -v
batch_wait "$work/devices.log" 60
gid_lines "$work/devices.log" soft0 > "$work/soft-gids.txt"
echo "soft table:"
cat "$work/soft-gids.txt"
same_table() {
    if [ "$reference" = "rxe1 on veth1 in namespace peer" ]; then
        diff "$work/kernel-gids.txt" "$work/soft-gids.txt" > "$work/gid-diff.txt"
    else
        diff <(sed -E 's/[0-9a-f:.]+, /ADDR, /; s/::ffff:ADDR/V4/' "$work/kernel-gids.txt") \
            <(sed -E 's/[0-9a-f:.]+, /ADDR, /; s/::ffff:ADDR/V4/' "$work/soft-gids.txt") > "$work/gid-diff.txt"
    fi && [ -s "$work/soft-gids.txt" ]
}
check gid-table-equals-kernel same_table
check active-mtu-1500 grep -qP "max_mtu:\t4096\tactive_mtu: 1024" "$work/devices.log"

# 3. ibv_rc_pingpong on rxe0 against the soft device, both ways, as scripts/vm-guest-ctools.sh
# pairs them; TCP goes over IPv4 whatever the GID.
bin=$(dirname "$LD_LIBRARY_PATH")/bin
tcp_port=19700
pingpong() { # $1 = GID index, $2 = c-server or soft-server
    tcp_port=$((tcp_port + 1))
    local c="$bin/ibv_rc_pingpong -d rxe0 -g $1 -n 50 -c -p $tcp_port"
    local s="v4j pingpong --compat ibv_rc_pingpong -d soft0 -g $1 -n 50 -c -p $tcp_port"
    local clog=$work/pingpong-g$1-$2-c.log slog=$work/pingpong-g$1-$2-soft.log crc src
    c_soft_pairing "$2" "$c" "$s" "$clog" "$slog" "$tcp_port" 10.9.0.1 10.9.0.2 60
    crc=$pair_c src=$pair_soft
    echo "GID $1, $2: exit status C $crc, soft $src; C: $(grep -h "usec/iter" "$clog" | head -n 1)"
    [ "$crc" = 0 ] && [ "$src" = 0 ] && ! grep -q "invalid data" "$clog" && grep -q "every byte as sent" "$slog"
}
check pingpong-gid0-linklocal-c-server pingpong 0 c-server
check pingpong-gid0-linklocal-soft-server pingpong 0 soft-server
check pingpong-gid1-ipv4-c-server pingpong 1 c-server
check pingpong-gid1-ipv4-soft-server pingpong 1 soft-server

# 4. The port follows veth1: its MTU (no event, as with rxe) and its state (PORT_ERR, then
# PORT_ACTIVE; going down takes fd00:9::2 away: GID_CHANGE). The device reads the interface
# every half second.
watch=$work/watch.log
batch_run peer "$watch" devices --watch 14 -d soft0
await 30 "$watch.rc" has_line "$watch" "^soft0 port 1 state ACTIVE active_mtu 1024"
saw() { await 4 "$watch.rc" has_line "$watch" "$1"; }
ip netns exec peer ip link set veth1 mtu 1000
check mtu-1000-gives-512 saw "state ACTIVE active_mtu 512"
ip netns exec peer ip link set veth1 mtu 1500
check mtu-1500-gives-1024 saw "state ACTIVE active_mtu 1024$"
ip netns exec peer ip link set veth1 down
check down-gives-port-err saw "^soft0 event PORT_ERR 1"
check down-gives-port-down saw "^soft0 port 1 state DOWN"
check gone-address-gives-gid-change saw "^soft0 event GID_CHANGE 1"
ip netns exec peer ip link set veth1 up
check up-gives-port-active saw "^soft0 event PORT_ACTIVE 1"
batch_wait "$watch" 30
batch_close
unset JAVA_TOOL_OPTIONS
# As the other steps found it: veth1 up at MTU 1500 with fd00:9::2, without 10.9.1.2.
ip netns exec peer ip addr del 10.9.1.2/24 dev veth1
ip netns exec peer ip addr add fd00:9::2/64 dev veth1 nodad 2>/dev/null
ipv6_on > /dev/null 2>&1

cp "$work"/*.log "$work"/*.txt "$out/netdev/" 2>/dev/null
echo "netdev: $passed passed, $failed failed" | tee -a "$results"
echo "== netdev took $((SECONDS - start)) s"
[ "$failed" = 0 ]
