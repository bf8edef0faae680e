#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -n veth), with a host build: blktests' nvme group,
# the kernel's NVMe host (nvme-rdma, nvme-cli, fio) over rdma, against
#   1. verbs4j's target on the soft provider in namespace 'peer', through blktests' external
#      target control (NVME_TARGET_CONTROL=scripts/nvmet-control.sh): column blktests-java;
#   2. the kernel's target (nvmet-rdma through configfs, as blktests sets it up itself), the
#      reference: column blktests-kernel. blktests removes the soft RDMA devices after each
#      test of this column (and makes its own again), so it runs second.
# BLKTESTS names a built blktests checkout the guest can read (the host's root is the
# guest's). Test names to run follow the options (default: the whole nvme group); the tests
# that need what the VM lacks (a PCI device, TLS, another transport) skip themselves.
# Results: target/vm/blktests.tsv (column, test, pass|fail|not run, reason), each run's
# blktests output and results in target/vm/blktests/.
#
#   BLKTESTS=/path/to/blktests bash scripts/vm-guest-blktests.sh [--java-only|--kernel-only] [nvme/004 ...]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/vm-guest-env.sh
out=target/vm/blktests
results=target/vm/blktests.tsv
rm -rf "$out" "$results"
mkdir -p "$out"
columns=(java kernel)
case ${1:-} in
    --java-only) columns=(java); shift ;;
    --kernel-only) columns=(kernel); shift ;;
esac
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(nvme)
blktests=${BLKTESTS:-}
if [ -z "$blktests" ] || [ ! -x "$blktests/check" ]; then
    echo "no blktests checkout (BLKTESTS='$blktests'): no Debian archive packages blktests" | tee "$out/skipped.txt"
    exit 0
fi

# blktests reads its lists through process substitution, which needs /dev/fd; and the kernel's
# configuration from /boot (the tests of in-band authentication check its options), which the
# guest has beside its modules.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
release=$(uname -r)
[ -f "/boot/config-$release" ] || [ ! -f "/lib/modules/$release/config" ] || cp "/lib/modules/$release/config" "/boot/config-$release"
modprobe -a nvme_rdma nvmet nvmet_rdma loop 2> "$out/modprobe.log" || { cat "$out/modprobe.log"; exit 1; }
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
# blktests compares the kernel log before and after each test and keeps its files under
# its own directory; a tmpfs for the namespaces' files, which blktests makes in TMPDIR.
work=/run/blktests
mkdir -p "$work"
mountpoint -q "$work" || mount -t tmpfs -o size=1200M none "$work"
cp -a "$blktests" "$work/blktests"
cd "$work/blktests" || exit 1
# NVME_NUM_ITER: the loops of connect and disconnect (nvme/031's and others') run 1000 times
# by default, hours under emulation; 10 rounds still race setup against teardown.
cat > config <<EOF
NVMET_TRTYPES=rdma
USE_RXE=1
NVME_IMG_SIZE=64M
NVME_NUM_ITER=10
TMPDIR=$work/tmp
EOF
mkdir -p "$work/tmp"
# The guest's root is the host's under another root than init's, which systemd's tools take for
# a chroot: udevadm settle then prints "Running in chroot, ignoring request.", and blktests
# compares every test's output. No udevd runs here, so there is nothing to settle either way.
export SYSTEMD_IGNORE_CHROOT=1

collect() { # column results-dir: one line per test in blktests' result files
    # A test blktests runs once per block device type is named with the type where it is not a
    # file (the kernel's target also runs the loop-device variant, which an external target has not).
    local column=$1 dir=$2 f status reason name
    for f in $(find "$dir" -type f -path '*/nvme/*' ! -name '*.*' | sort); do
        status=$(awk -F'\t' '$1 == "status" { print $2 }' "$f")
        reason=$(awk -F'\t' '$1 == "reason" { print $2 }' "$f" | tr '\n' ' ')
        [ "$status" != fail ] || reason="$reason$(head -c 300 "$f.out.bad" 2>/dev/null | tr '\n\t' '  ')"
        name="nvme/$(basename "$f")"
        [[ $f != *_bd_device/* ]] || name="$name bd=device"
        printf '%s\t%s\t%s\t%s\n' "$column" "$name" "$status" "$reason" >> "$root/$results"
    done
}

for column in "${columns[@]}"; do
    start=$SECONDS
    echo "== blktests nvme against the $column target (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"
    if [ "$column" = java ]; then
        NVME_TARGET_CONTROL=$root/scripts/nvmet-control.sh NVMET_CONTROL_STATE=$work/nvmet-control \
            ./check -o "$work/results-$column" "${tests[@]}" > "$root/$out/$column.log" 2>&1
        "$root/scripts/nvmet-control.sh" stop
        cp "$work/nvmet-control/target.log" "$root/$out/java-target.log" 2>/dev/null
    else
        ./check -o "$work/results-$column" "${tests[@]}" > "$root/$out/$column.log" 2>&1
    fi
    cp -a "$work/results-$column" "$root/$out/"
    collect "$column" "$work/results-$column"
    grep -E "\[(passed|failed|not run)\]" "$root/$out/$column.log" | sed 's/\x1b\[[0-9;]*m//g' | tail -n 80
    echo "== blktests against the $column target took $(( SECONDS - start )) s:" \
        "$(awk -F'\t' -v c="$column" '$1 == c { n[$3]++ } END { printf "%d passed, %d failed, %d not run", n["pass"], n["fail"], n["not run"] }' "$root/$results")"
done
