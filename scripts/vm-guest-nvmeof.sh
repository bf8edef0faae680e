#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -n veth), from scripts/vm-guest.sh or alone:
# NVMe over Fabrics between the kernel's NVMe stacks and verbs4j's (nvmeof/), in both
# directions, with the kernel against itself as the reference, on one boot:
#   kernel host (nvme-rdma, nvme-cli, fio) -> kernel target (nvmet-rdma on rxe0, 10.9.0.1);
#   kernel host -> verbs4j target on the soft provider (namespace peer, 10.9.0.2);
#   kernel host -> verbs4j target on the ibverbs provider (rxe0 itself, as blktests pairs them);
#   verbs4j host (soft, in peer; ibverbs, on rxe0) -> kernel target;
#   verbs4j host -> verbs4j target, soft against soft (peer, 10.9.0.3 -> 10.9.0.2);
#   each writing a pattern through one stack and reading it back through the other;
#   faults: the verbs4j target killed in the middle of fio, a verbs4j host killed in the
#   middle of its commands while the kernel host runs beside it.
# fio: 4 KiB random writes verified at depth 32 on two jobs (two I/O queues), 128 KiB
# sequential writes and reads, and a 70/30 mix, each verified (crc32c). Sizes are small:
# under TCG these measure one emulator, and the figures are ratios to the kernel target's.
# One line per check into target/vm/nvmeof.tsv (pairing/check, pass|fail, detail) and the
# figures into target/vm/nvmeof-figures.tsv; scripts/vm-evaluate.py makes them the nvmeof
# column. Needs nvme-cli and fio on the host (scripts/install-build-deps.sh) and a host build.
#   rxe-vm/run.sh -n veth -t 900 -e JAVA_HOME=$JAVA_HOME -- bash scripts/vm-guest-nvmeof.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/vm-guest-env.sh
column=nvmeof
out=target/vm
results=$out/nvmeof.tsv
figures=$out/nvmeof-figures.tsv
logs=$out/nvmeof
rm -rf "$results" "$figures" "$logs"
mkdir -p "$logs"
start_all=$SECONDS
hostid=5e7a0c1e-0000-4000-8000-000000000001
hostnqn=nqn.2014-08.org.nvmexpress:uuid:$hostid
# The namespaces' files on tmpfs: its inodes say 4 KiB blocks, which nvmet takes for the
# namespace's block size (the guest's overlay root says none).
work=/run/nvmeof
mkdir -p "$work"
mount -t tmpfs -o size=320M none "$work"

source scripts/vm-guest-nvmeof-lib.sh
# The kernel's log from here on is this script's to judge.
log_start=$(dmesg | wc -l)
modprobe nvme_rdma && modprobe nvmet_rdma || { record setup fail "no nvme_rdma or nvmet_rdma module"; exit 1; }
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
# A pattern written by one stack and read back by the other.
head -c 2M /dev/urandom > "$work/pattern-a"
head -c 2M /dev/urandom > "$work/pattern-b"

# 1. The reference: the kernel host against the kernel target, both on rxe0.
step "kernel host -> kernel target (rxe0)"
kernel_target_up 10.9.0.1
if check "kernel-host-kernel-target#connect" kernel_connect 10.9.0.1 "$knqn"; then
    fio_suite kernel-host-kernel-target
    check "kernel-host-kernel-target#disconnect" kernel_disconnect
fi

# 2. The verbs4j host against the kernel target: from the soft provider in peer, with each key
# method it has; from the ibverbs provider on rxe0, with the best the device offers (type 2
# windows on rxe: libibverbs has no fast registration) and with region keys.
step "verbs4j host -> kernel target"
java_discovers_kernel() {
    java_host peer soft 10.9.0.2 --address 10.9.0.1 --discover > "$logs/soft-discover.out" 2>&1
    local rc=$?
    cat "$logs/soft-discover.out"
    [ "$rc" = 0 ] && grep -q "$knqn" "$logs/soft-discover.out"
}
check "soft-host-kernel-target#discover" java_discovers_kernel
# Fast registration at depth 32 over 2 queues, 4 KiB writes in the capsule and reads keyed,
# with pattern-a as the data: written, flushed and read back, then read by the kernel host.
java_writes_kernel_reads() {
    java_host peer soft 10.9.0.2 --address 10.9.0.1 --subsystem "$knqn" --queues 2 --depth 32 --io-bytes 4K \
        --count 512 --pattern "$work/pattern-a" || return 1
    kernel_connect 10.9.0.1 "$knqn" && dd_compare "$work/pattern-a" "$dev" 0
    local rc=$?
    kernel_disconnect
    return $rc
}
check "soft-host-kernel-target#fast-register-qd32-kernel-reads-back" java_writes_kernel_reads
check "soft-host-kernel-target#region-no-in-capsule" java_host peer soft 10.9.0.2 --address 10.9.0.1 \
    --subsystem "$knqn" --depth 16 --io-bytes 16K --count 128 --seed 4 --key-method region --no-in-capsule
# rxe0 has type 2 windows and libibverbs no fast registration: the host must pick windows.
ibverbs_best_keys() {
    java_host - ibverbs 10.9.0.1 --address 10.9.0.1 --subsystem "$knqn" --queues 2 --depth 32 --io-bytes 4K \
        --count 512 --seed 5 > "$logs/ibverbs-best-keys.out" 2>&1
    local rc=$?
    cat "$logs/ibverbs-best-keys.out"
    [ "$rc" = 0 ] && grep -q "keys by WINDOW" "$logs/ibverbs-best-keys.out"
}
check "ibverbs-host-kernel-target#best-keys-qd32" ibverbs_best_keys
check "ibverbs-host-kernel-target#region" java_host - ibverbs 10.9.0.1 --address 10.9.0.1 \
    --subsystem "$knqn" --depth 16 --io-bytes 16K --count 256 --seed 6 --key-method region
# Written by the kernel host, read by the verbs4j host.
kernel_writes_java_reads() {
    kernel_connect 10.9.0.1 "$knqn" && dd_write "$work/pattern-b" "$dev" 0
    local rc=$?
    kernel_disconnect
    [ "$rc" = 0 ] && java_host peer soft 10.9.0.2 --address 10.9.0.1 --subsystem "$knqn" --io-bytes 4K --count 512 \
        --pattern "$work/pattern-b" --phase read
}
check "soft-host-kernel-target#kernel-writes-verbs4j-reads" kernel_writes_java_reads
kernel_target_down

# 3. The kernel host against the verbs4j target on the soft provider, in peer.
kernel_discovers_java() {
    nvme discover -t rdma -a 10.9.0.2 -s 4420 --hostnqn="$hostnqn" --hostid="$hostid" > "$logs/nvme-discover.out" 2>&1
    local rc=$?
    cat "$logs/nvme-discover.out"
    [ "$rc" = 0 ] && grep -q "subnqn: *$nqn" "$logs/nvme-discover.out"
}
step "kernel host -> verbs4j target (soft, peer)"
if check "kernel-host-soft-target#target-starts" java_target_start soft 10.9.0.2; then
    check "kernel-host-soft-target#nvme-discover" kernel_discovers_java
    if check "kernel-host-soft-target#connect" kernel_connect 10.9.0.2 "$nqn"; then
        fio_suite kernel-host-soft-target
        check "kernel-host-soft-target#kernel-writes" dd_write "$work/pattern-a" "$dev" 128
        check "kernel-host-soft-target#disconnect" kernel_disconnect
    fi
    # The same namespace through the verbs4j host, soft against soft (a second address in peer):
    # fast registration at depth 32 over 2 queues, reading what the kernel host wrote. Two soft
    # engines in one emulated guest answer slowly enough that a Keep Alive can miss the
    # target's 5 s deadline: this host asks for 30 s.
    ip netns exec peer ip addr add 10.9.0.3/24 dev veth1 2>/dev/null
    check "soft-host-soft-target#kernel-wrote-verbs4j-reads" java_host peer soft 10.9.0.3 --address 10.9.0.2 \
        --subsystem "$nqn" --io-bytes 4K --count 512 --pattern "$work/pattern-a" --phase read --queues 2 \
        --offset 128M --keep-alive-ms 30000
    java_target_stop
fi

# 4. The kernel host against the verbs4j target on the ibverbs provider, on rxe0 itself.
step "kernel host -> verbs4j target (ibverbs, rxe0)"
if check "kernel-host-ibverbs-target#target-starts" java_target_start ibverbs 10.9.0.1; then
    if check "kernel-host-ibverbs-target#connect" kernel_connect 10.9.0.1 "$nqn"; then
        # The same target code as on the soft provider, which ran every fio shape: here the two
        # verified write runs, 4 KiB at depth 32 and 128 KiB, move data both ways through rxe0.
        fio_suite kernel-host-ibverbs-target short
        check "kernel-host-ibverbs-target#kernel-wrote-earlier-reads" dd_compare "$work/pattern-a" "$dev" 128
        check "kernel-host-ibverbs-target#disconnect" kernel_disconnect
    fi
    java_target_stop
fi

# 5. Faults. The verbs4j target killed while fio writes: the kernel host sees the controller
# leave, reconnects when the target is back on the same file, and what was written and
# flushed before the kill reads back.
step "fault: the verbs4j target killed in the middle of fio"
target_killed() {
    java_target_start soft 10.9.0.2 || return 1
    kernel_connect 10.9.0.2 "$nqn" --reconnect-delay=1 --ctrl-loss-tmo=60 || return 1
    local c=$ctrl d=$dev
    dd_write "$work/pattern-b" "$d" 0 || return 1
    fio --name=killed --filename="$d" --ioengine=libaio --direct=1 --verify_state_save=0 --rw=randwrite --bs=4k --iodepth=32 \
        --offset=16M --size=64M --time_based --runtime=20 > "$logs/fault-fio.log" 2>&1 &
    local fio_pid=$!
    sleep 3
    kill -9 "$target_pid"
    wait "$target_pid" 2>/dev/null
    target_pid=
    await 30 "" sh -c "! grep -qx live /sys/class/nvme/$c/state" || { echo "the controller stayed live"; return 1; }
    echo "after the kill: $(cat /sys/class/nvme/$c/state)"
    java_target_start soft 10.9.0.2 || return 1
    await 60 "" grep -qx live "/sys/class/nvme/$c/state" || { echo "no reconnect: $(cat /sys/class/nvme/$c/state)"; return 1; }
    echo "reconnected: $(cat /sys/class/nvme/$c/state)"
    wait "$fio_pid"
    echo "fio across the kill exited $?"
    ctrl=$c dev=$d
    dd_compare "$work/pattern-b" "$d" 0 || return 1
    cmp -n 2097152 "$work/pattern-b" "$work/java-ns1.img" || return 1
    kernel_disconnect
    java_target_stop
    echo "flushed data survived the kill, the host reconnected"
}
check "fault#target-killed-during-fio" target_killed
java_target_stop
kernel_disconnect 2>/dev/null

# A verbs4j host killed in the middle of its commands must not harm the target or the kernel
# host beside it, whose verified fio run goes on.
step "fault: a host killed in the middle of its commands"
host_killed() {
    java_target_start soft 10.9.0.2 || return 1
    kernel_connect 10.9.0.2 "$nqn" || return 1
    java_host - ibverbs 10.9.0.1 --address 10.9.0.2 --subsystem "$nqn" --queues 2 --depth 32 --io-bytes 16K \
        --count 4096 --nsid 2 > "$logs/fault-killed-host.log" 2>&1 &
    local host_pid=$!
    await 60 "$host_pid" grep -q "^controller" "$logs/fault-killed-host.log" || { echo "the host never connected"; return 1; }
    fio --name=beside --filename="$dev" --ioengine=libaio --direct=1 --verify_state_save=0 --rw=randwrite --bs=4k \
        --iodepth=16 --size=8M --offset=96M --verify=crc32c --verify_fatal=1 > "$logs/fault-beside.log" 2>&1 &
    local fio_pid=$!
    sleep 1
    kill -0 "$host_pid" || { echo "the host ended before it could be killed: $(tail -n 1 "$logs/fault-killed-host.log")"; return 1; }
    # java_host is a function: the background job is a shell whose child is the JVM; kill both.
    local host_tree
    host_tree=$(process_tree "$host_pid")
    kill -9 $host_tree
    wait "$host_pid" 2>/dev/null
    sleep 1
    local p
    for p in $host_tree; do
        [ ! -d "/proc/$p" ] || [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" = Z ] ||
            { echo "the host's process $p outlived its kill"; return 1; }
    done
    wait "$fio_pid" || { echo "the kernel host's fio failed beside the killed host"; return 1; }
    kill -0 "$target_pid" || { echo "the target died"; return 1; }
    java_host - ibverbs 10.9.0.1 --address 10.9.0.2 --subsystem "$nqn" --depth 8 --io-bytes 4K --count 64 --nsid 2 \
        || { echo "a new host could not run after the kill"; return 1; }
    kernel_disconnect
    java_target_stop
    echo "the target and the kernel host beside it carried on; a new host ran"
}
check "fault#host-killed-mid-command" host_killed
java_target_stop
kernel_disconnect 2>/dev/null

record_kernel_log "$log_start"
finish
