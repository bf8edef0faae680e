#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -m siw.ko, dummy network), from
# scripts/vm-suite.sh or alone: NVMe over Fabrics on iWARP, the kernel's NVMe stacks and
# verbs4j's on siw0, all in the root namespace, where the kernel's host and target make their
# connections. rxe0 is removed first, so that the connection manager resolves dummy0's
# 10.0.2.15 to siw0; host and target then meet over TCP on that address.
#   kernel host -> kernel target, the reference;
#   verbs4j host (ibverbs provider) -> kernel target, with region keys (siw has neither
#   windows nor fast registration for user space);
#   kernel host -> verbs4j target (ibverbs provider): the kernel host fast-registers and asks
#   for remote invalidation, which the target's SEND with invalidate must carry through
#   rdma-core's siw provider, and siw must accept (no refusal in its log).
# One line per check into target/vm/nvmeof-siw.tsv (the column nvmeof-siw of
# scripts/vm-evaluate.py).
#   rxe-vm/run.sh -m "$(kernel/patches/build-module.sh siw)" -t 600 -e JAVA_HOME=$JAVA_HOME -- bash scripts/vm-guest-nvmeof-siw.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/vm-guest-env.sh
column=nvmeof-siw
out=target/vm
results=$out/nvmeof-siw.tsv
figures=$out/nvmeof-siw-figures.tsv
logs=$out/nvmeof-siw
rm -rf "$results" "$figures" "$logs"
mkdir -p "$logs"
start_all=$SECONDS
hostid=5e7a0c1e-0000-4000-8000-000000000002
hostnqn=nqn.2014-08.org.nvmexpress:uuid:$hostid
work=/run/nvmeof-siw
mkdir -p "$work"
mount -t tmpfs -o size=320M none "$work"
address=10.0.2.15

source scripts/vm-guest-nvmeof-lib.sh
[ -e /sys/class/infiniband/siw0 ] || { record setup fail "no siw0 in this boot (run.sh needs -m siw.ko)"; exit 1; }
rdma link delete rxe0 2>/dev/null
[ ! -e /sys/class/infiniband/rxe0 ] || { record setup fail "rxe0 could not be removed"; exit 1; }
modprobe nvme_rdma && modprobe nvmet_rdma || { record setup fail "no nvme_rdma or nvmet_rdma module"; exit 1; }
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
# siw's refusals of an invalidation in its log: the debug messages of siw_invalidate_stag that
# refuse (every accepted one has a message too, thousands a run, which would fill the log).
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
for refusal in unknown mismatch "cannot be invalidated"; do
    echo "func siw_invalidate_stag format \"$refusal\" +p" > /sys/kernel/debug/dynamic_debug/control
done
head -c 2M /dev/urandom > "$work/pattern-a"

step "kernel host -> kernel target (siw0)"
kernel_target_up "$address"
if check "kernel-host-kernel-target#connect" kernel_connect "$address" "$knqn"; then
    fio_suite kernel-host-kernel-target short
    check "kernel-host-kernel-target#disconnect" kernel_disconnect
fi

step "verbs4j host (ibverbs, siw0) -> kernel target"
check "ibverbs-host-kernel-target#region-qd16" java_host - ibverbs "$address" --address "$address" \
    --subsystem "$knqn" --queues 2 --depth 16 --io-bytes 16K --count 256 --seed 6 --key-method region
kernel_target_down

step "kernel host -> verbs4j target (ibverbs, siw0)"
no_refused_invalidation() { # siw refused no STag a SEND with invalidate or LOCAL_INV named
    local sites refused
    sites=$(grep -c 'siw_invalidate_stag =p' /sys/kernel/debug/dynamic_debug/control)
    [ "$sites" -ge 3 ] || { echo "siw's refusal messages are not enabled ($sites sites)"; return 1; }
    refused=$(dmesg | grep -c 'siw_invalidate_stag: ')
    echo "siw refused $refused invalidations"
    [ "$refused" = 0 ]
}
pattern_through_target() {
    dd_write "$work/pattern-a" "$dev" 0 && cmp -n 2097152 "$work/pattern-a" "$work/java-ns1.img" &&
        dd_compare "$work/pattern-a" "$dev" 0
}
if check "kernel-host-ibverbs-target#target-starts" java_target_start ibverbs "$address"; then
    if check "kernel-host-ibverbs-target#connect" kernel_connect "$address" "$nqn"; then
        fio_suite kernel-host-ibverbs-target short
        check "kernel-host-ibverbs-target#pattern-in-the-target-file" pattern_through_target
        check "kernel-host-ibverbs-target#disconnect" kernel_disconnect
        check "kernel-host-ibverbs-target#remote-invalidation-accepted" no_refused_invalidation
    fi
    java_target_stop
fi

# The boot is this script's alone: its whole kernel log is judged.
record_kernel_log 0
finish
