#!/usr/bin/env bash
# The helpers of the guest scripts that run NVMe over Fabrics between the kernel's NVMe stacks
# and verbs4j's (vm-guest-nvmeof.sh on rxe0 and the soft provider, vm-guest-nvmeof-siw.sh on
# siw0): one line per check into $results as "$column/check", figures into $figures, logs in
# $logs, namespace files in $work. The caller sets those and hostnqn and hostid, then sources
# this file after scripts/vm-guest-env.sh; it sets the rest.
classpath=$(nvmeof_classpath)
# The JVM as java_run starts it, but as one command, whose process id is the JVM's even under
# 'ip netns exec' (the target must be killed, not a shell around it).
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:TieredStopAtLevel=1)
[ ! -f "$(cds_archive "$classpath")" ] || java+=(-XX:SharedArchiveFile="$(cds_archive "$classpath")" -Xlog:cds=off)
nqn=nqn.2026-01.dev.verbs4j:vm
knqn=nqn.2026-01.dev.verbs4j:kernel-target
cfg=/sys/kernel/config/nvmet

record() { # check pass|fail detail
    printf '%s/%s\t%s\t%s\n' "$column" "$1" "$2" "$3" >> "$results"
    echo "$2  $column/$1  $3"
}
check() { # check command... (pass when it exits 0; its last output line is the detail)
    local name=$1 log
    shift
    log="$logs/$(echo "$name" | tr '/#' '__').log"
    if "$@" > "$log" 2>&1; then
        record "$name" pass "$(tail -n 1 "$log")"
    else
        record "$name" fail "status $?: $(tail -n 3 "$log" | tr '\n' ' ')"
    fi
}
figure() { # name value unit
    printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$figures"
}


kernel_target_up() { # the kernel target on $1:4420, namespace 1 a 256 MiB file
    mkdir -p "$cfg/subsystems/$knqn"
    echo 1 > "$cfg/subsystems/$knqn/attr_allow_any_host"
    truncate -s 256M "$work/kernel-ns1.img"
    mkdir -p "$cfg/subsystems/$knqn/namespaces/1"
    echo -n "$work/kernel-ns1.img" > "$cfg/subsystems/$knqn/namespaces/1/device_path"
    echo 1 > "$cfg/subsystems/$knqn/namespaces/1/enable"
    mkdir -p "$cfg/ports/1"
    echo rdma > "$cfg/ports/1/addr_trtype"
    echo ipv4 > "$cfg/ports/1/addr_adrfam"
    echo "$1" > "$cfg/ports/1/addr_traddr"
    echo 4420 > "$cfg/ports/1/addr_trsvcid"
    ln -sf "$cfg/subsystems/$knqn" "$cfg/ports/1/subsystems/$knqn"
}
kernel_target_down() {
    rm -f "$cfg/ports/1/subsystems/$knqn"
    rmdir "$cfg/ports/1" 2>/dev/null
    echo 0 > "$cfg/subsystems/$knqn/namespaces/1/enable" 2>/dev/null
    rmdir "$cfg/subsystems/$knqn/namespaces/1" "$cfg/subsystems/$knqn" 2>/dev/null
}

# The verbs4j target: $1 soft|ibverbs, $2 its address; namespace 1 a 256 MiB file (kept
# across restarts), 2 in memory. Sets target_pid; returns once it listens.
target_pid=
java_target_start() {
    local provider=$1 address=$2 run=() devices=()
    [ "$provider" = ibverbs ] || { run=(ip netns exec peer); devices=(-Dverbs4j.soft.devices=p0=$address); }
    [ -f "$work/java-ns1.img" ] || truncate -s 256M "$work/java-ns1.img"
    "${run[@]}" "${java[@]}" "${devices[@]}" -cp "$classpath" dev.verbs4j.nvmeof.TargetMain --provider "$provider" --address "$address" --port 4420 \
        --subsystem "$nqn" --namespace "file:$work/java-ns1.img:256M:4096" --namespace mem:32M \
        >> "$logs/target-$provider.log" 2>&1 &
    target_pid=$!
    await 60 "$target_pid" grep -q "nvmeof target on" "$logs/target-$provider.log"
}
java_target_stop() {
    [ -n "$target_pid" ] || return 0
    kill "$target_pid" 2>/dev/null
    wait "$target_pid" 2>/dev/null
    target_pid=
}

# The kernel host: connects to subsystem $2 at $1 and sets ctrl (nvmeN) and dev (its first
# namespace's block device). Extra nvme-connect options follow.
ctrl=
dev=
kernel_connect() {
    local address=$1 subsystem=$2 c b
    shift 2
    nvme connect -t rdma -a "$address" -s 4420 -n "$subsystem" --hostnqn="$hostnqn" --hostid="$hostid" \
        --nr-io-queues=2 "$@" || return 1
    ctrl=
    dev=
    for _ in $(seq 1 100); do
        for c in /sys/class/nvme/nvme*; do
            grep -qx "$subsystem" "$c/subsysnqn" 2>/dev/null && grep -qx live "$c/state" && ctrl=$(basename "$c")
        done
        # Namespace 1's block device, by its nsid: the kernel numbers the disks in the order its
        # scan found them. With native multipath a disk's device is the subsystem, else the controller.
        for b in /sys/block/nvme*n*; do
            [[ $(basename "$b") =~ ^nvme[0-9]+n[0-9]+$ ]] && grep -qx "$subsystem" "$b/device/subsysnqn" 2>/dev/null &&
                grep -qx 1 "$b/nsid" 2>/dev/null && dev=/dev/$(basename "$b")
        done
        [ -n "$ctrl" ] && [ -b "$dev" ] && [ "$(cat "/sys/block/${dev#/dev/}/size")" -gt 0 ] &&
            { echo "$ctrl: $dev, $(( $(cat "/sys/block/${dev#/dev/}/size") / 2048 )) MiB"; return 0; }
        sleep 0.1
    done
    echo "no live controller with a namespace for $subsystem"
    return 1
}
kernel_disconnect() {
    [ -n "$ctrl" ] || return 0
    nvme disconnect -d "$ctrl" > /dev/null
    local rc=$?
    ctrl=
    dev=
    return $rc
}

# One fio job on $dev: $1 name, $2 pairing (for the figures), then fio's options. Passes
# when fio exits 0 with no error and, where it verifies, every block verified.
fio_run() {
    local name=$1 pairing=$2
    shift 2
    fio --name="$name" --filename="$dev" --ioengine=libaio --direct=1 --group_reporting --verify_state_save=0 \
        --output-format=json --output="$logs/$pairing-$name.json" "$@" || return 1
    python3 - "$logs/$pairing-$name.json" "$pairing" "$name" "$figures" <<'PY'
import json, sys
path, pairing, name, figures = sys.argv[1:5]
text = open(path).read()
job = json.loads(text[text.index("{"):])["jobs"][0]  # after fio's warnings, if any
if job["error"]:
    sys.exit("fio error %d" % job["error"])
parts = []
with open(figures, "a") as f:
    for rw in ("write", "read"):
        if job[rw]["io_bytes"]:
            iops, mbs = job[rw]["iops"], job[rw]["bw_bytes"] / 1e6
            f.write("%s/%s-%s\t%.0f\tIOPS\n%s/%s-%s\t%.2f\tMB/s\n" % (pairing, name, rw, iops, pairing, name, rw, mbs))
            parts.append("%s %.0f IOPS %.2f MB/s" % (rw, iops, mbs))
if not parts:
    sys.exit("fio moved no data")
print(", ".join(parts))
PY
}
# The fio runs of one pairing, on $dev; with "short", the two verified write runs only.
fio_suite() { # pairing [short]
    local p=$1
    check "$p#fio-4k-randwrite-verify-qd32" fio_run randwrite "$p" --rw=randwrite --bs=4k --iodepth=32 \
        --numjobs=2 --size=4M --offset_increment=8M --verify=crc32c --verify_fatal=1 --randrepeat=0
    check "$p#fio-128k-write-verify" fio_run seqwrite "$p" --rw=write --bs=128k --iodepth=8 --size=16M \
        --offset=32M --verify=crc32c --verify_fatal=1
    [ "${2:-}" != short ] || return 0
    check "$p#fio-128k-read" fio_run seqread "$p" --rw=read --bs=128k --iodepth=8 --size=16M --offset=32M
    check "$p#fio-4k-mixed-70-30-verify" fio_run mixed "$p" --rw=randrw --rwmixread=70 --bs=4k --iodepth=16 \
        --size=4M --offset=64M --verify=crc32c --verify_fatal=1
}

dd_write() { # pattern device offset-MiB
    dd if="$1" of="$2" bs=1M seek="$3" oflag=direct status=none && nvme flush "$2" > /dev/null
}
dd_compare() { # pattern device offset-MiB
    dd if="$2" of="$work/back" bs=1M skip="$3" count=2 iflag=direct status=none && cmp "$1" "$work/back" &&
        echo "2 MiB read back at $3 MiB match"
}
java_host() { # namespace (peer|-) provider source args... : HostMain against --address
    local ns=$1 provider=$2 source=$3 run=() devices=()
    shift 3
    [ "$ns" = - ] || run=(ip netns exec "$ns")
    [ "$provider" = ibverbs ] || devices=(-Dverbs4j.soft.devices=h0=$source)
    "${run[@]}" "${java[@]}" "${devices[@]}" -cp "$classpath" dev.verbs4j.nvmeof.HostMain --provider "$provider" --source "$source" --port 4420 "$@"
}
step() { echo "== $column: $* (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"; }

# The kernel's log from line $1 + 1 of dmesg on (0: the whole boot's) must hold no oops, BUG or
# WARNING.
record_kernel_log() {
    dmesg | tail -n +"$(($1 + 1))" > "$logs/dmesg.txt"
    if grep -qE 'BUG:|Oops|general protection|WARNING:' "$logs/dmesg.txt"; then
        record kernel-log fail "the kernel logged: $(grep -E 'BUG:|Oops|general protection|WARNING:' "$logs/dmesg.txt" | head -n 1)"
    else
        record kernel-log pass "no oops, BUG or WARNING in the kernel's log"
    fi
}
# Unmounts $work, prints the column's counts and fails when a check failed.
finish() {
    umount "$work"
    rmdir "$work"
    echo "== $column took $(( SECONDS - start_all )) s: $(grep -c "	pass	" "$results") passed, $(grep -c "	fail	" "$results") failed"
    ! grep -q "	fail	" "$results"
}
