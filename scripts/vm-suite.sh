#!/usr/bin/env bash
# The kernel-rxe part of the test command: boots the rxe micro-VM once and runs there the
# conformance suite against the ibverbs provider on rxe0, the soft <-> kernel interop
# across a veth pair, and the perf runs beside perftest (scripts/vm-guest.sh); then checks
# the results on the host. Where the VM cannot run, says SKIPPED with the reason.
# Needs a finished host build (./mvnw verify).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p target/vm
rm -f target/vm/*.rc target/vm/summary.env target/vm/perf.jsonl

if ! reason=$(rxe-vm/available.sh 2>&1); then
    echo "== kernel rxe suite SKIPPED: $reason"
    printf 'VM_STATUS=skipped\nVM_REASON=%q\n' "$reason" > target/vm/summary.env
    exit 0
fi
echo "== kernel rxe suite: preparing the micro-VM (kernel, qemu, rdma-core; cached after the first run)"
if ! rxe-vm/fetch.sh > target/vm/fetch.log 2>&1; then
    tail -n 20 target/vm/fetch.log
    echo "== kernel rxe suite: rxe-vm/fetch.sh failed (log: target/vm/fetch.log)"
    exit 1
fi
grep -E "kernel|qemu|rdma-core" target/vm/fetch.log | tail -n 3

start=$(date +%s)
echo "== kernel rxe suite: one boot for the conformance suite, interop and perf"
rxe-vm/run.sh -n veth -t 2700 -e JAVA_HOME="$JAVA_HOME" -- bash scripts/vm-guest.sh 2>&1 | tee target/vm/guest.log
status=${PIPESTATUS[0]}
echo "== kernel rxe suite: VM finished with status $status after $(( $(date +%s) - start )) s"
if [ "$status" -ne 0 ]; then
    echo "== kernel rxe suite: the VM run failed (status $status)"
    exit 1
fi
python3 scripts/vm-evaluate.py
