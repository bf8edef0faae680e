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
# programs). Results: target/vm/blktests.tsv, logs in target/vm/blktests/.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh
use_jdk25
mkdir -p target/vm
rm -f target/vm/blktests.tsv target/vm/blktests-skipped.txt
src=${VERBS4J_BLKTESTS:-}
if [ -z "$src" ] || [ ! -x "$src/check" ]; then
    reason="no blktests checkout (VERBS4J_BLKTESTS='$src'): no Debian archive packages blktests"
    echo "$reason" > target/vm/blktests-skipped.txt
    echo "== blktests SKIPPED: $reason"
    exit 0
fi
if ! command -v gawk > /dev/null; then
    echo "blktests needs GNU awk (gawk), which is not installed" > target/vm/blktests-skipped.txt
    echo "== blktests FAILED: $(cat target/vm/blktests-skipped.txt)"
    exit 1
fi
if ! reason=$(rxe-vm/available.sh 2>&1); then
    echo "blktests: $reason" > target/vm/blktests-skipped.txt
    echo "== blktests SKIPPED: $reason"
    exit 0
fi
rm -rf target/blktests
cp -a "$src" target/blktests
if ! make -C target/blktests > target/vm/blktests-make.log 2>&1; then
    echo "blktests did not build: $(tail -n 1 target/vm/blktests-make.log)" > target/vm/blktests-skipped.txt
    echo "== blktests FAILED to build (log: target/vm/blktests-make.log)"
    exit 1
fi
start=$(date +%s)
rxe-vm/run.sh -n veth -t 5400 -e JAVA_HOME="$JAVA_HOME" -e BLKTESTS="$PWD/target/blktests" \
    -- bash scripts/vm-guest-blktests.sh "$@"
status=$?
echo "== blktests took $(( $(date +%s) - start )) s (VM status $status)"
exit "$status"
