#!/usr/bin/env bash
# blktests' nvme group over rdma in one boot of the micro-VM (scripts/vm-guest-blktests.sh):
# the kernel's NVMe host against verbs4j's target (blktests' external target control,
# scripts/nvmet-control.sh) and against the kernel's own target, the reference. Needs a host
# build (./test.sh, or mvn verify) and a blktests checkout: no Debian archive packages
# blktests, so the test command runs this only when VERBS4J_BLKTESTS names one and otherwise
# reports the column skipped with that reason.
#
#   VERBS4J_BLKTESTS=/path/to/blktests scripts/vm-blktests.sh [--java-only|--kernel-only] [nvme/NNN ...]
#
# The checkout is copied to target/blktests and built there (make: blktests' helper
# programs). Results: target/vm/blktests.tsv, logs in target/vm/blktests/. What keeps the group
# from running is target/vm/blktests-skipped.txt where the machine lacks something it needs
# (no checkout, no gawk, no micro-VM), and target/vm/blktests-failed.txt where a run asked for
# did not happen (the checkout did not build, the boot gave no results): the test run's
# verdict (scripts/vm-evaluate.py) reports the first and fails on the second.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
use_jdk25
mkdir -p target/vm
rm -f target/vm/blktests.tsv target/vm/blktests-skipped.txt target/vm/blktests-failed.txt
src=${VERBS4J_BLKTESTS:-}
if [ -z "$src" ] || [ ! -x "$src/check" ]; then
    reason="no blktests checkout (VERBS4J_BLKTESTS='$src'): no Debian archive packages blktests"
    echo "$reason" > target/vm/blktests-skipped.txt
    echo "== blktests SKIPPED: $reason"
    exit 0
fi
if ! command -v gawk > /dev/null; then
    reason="blktests needs GNU awk (gawk), which is not installed"
    echo "$reason" > target/vm/blktests-skipped.txt
    echo "== blktests SKIPPED: $reason"
    exit 0
fi
if ! reason=$(rxe-vm/available.sh 2>&1); then
    echo "blktests: $reason" > target/vm/blktests-skipped.txt
    echo "== blktests SKIPPED: $reason"
    exit 0
fi
rm -rf target/blktests
cp -a "$src" target/blktests
if ! make -C target/blktests > target/vm/blktests-make.log 2>&1; then
    echo "blktests did not build: $(tail -n 1 target/vm/blktests-make.log)" > target/vm/blktests-failed.txt
    echo "== blktests FAILED to build (log: target/vm/blktests-make.log)"
    exit 1
fi
start=$(date +%s)
rxe-vm/run.sh -n veth -t 5400 -e JAVA_HOME="$JAVA_HOME" -e BLKTESTS="$PWD/target/blktests" \
    -- bash scripts/vm-guest-blktests.sh "$@"
status=$?
if [ ! -s target/vm/blktests.tsv ]; then
    echo "the micro-VM's run gave no results (status $status; logs: target/vm/blktests/)" > target/vm/blktests-failed.txt
fi
echo "== blktests took $(( $(date +%s) - start )) s (VM status $status)"
exit "$status"
