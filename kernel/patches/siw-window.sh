#!/usr/bin/env bash
# Shows the race in siw's accept that siw/0001 closes, by widening it: builds siw.ko twice with
# a 300 ms sleep after the passive side sends its MPA reply (siw-window/), once as the kernel
# has it and once on top of siw/'s series, boots each in rxe-vm and runs rdma-core's
# rdma_server against verbs4j's rdma-client on siw0 ROUNDS times (3 by default). The client
# sends its message as soon as the connection is established; as the kernel has it, that
# message arrives while the socket still has the connection manager's callbacks, and the
# server never receives it. Expect 0 of ROUNDS without the fix and ROUNDS of ROUNDS with it.
#   siw-window.sh [ROUNDS]     (after a host build, as the test command leaves it; about 5 min)
# Inside the guest (--guest ROUNDS) it runs the rounds and prints "passed P of ROUNDS".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
if [ "${1:-}" = --guest ]; then
    rounds=$2 passed=0
    for ((i = 1; i <= rounds; i++)); do
        CM_DEVICE=siw0 CM_ONLY='rdma_server#cm-ibverbs-siw\.cserver' bash scripts/vm-guest-cm.sh > /dev/null 2>&1 || true
        line=$(tail -n 1 target/vm/c-tools-cm-siw.tsv)
        echo "round $i: $(printf '%s\n' "$line" | cut -f2-3 | cut -c1-160)"
        [ "$(printf '%s\n' "$line" | cut -f2)" != pass ] || passed=$((passed + 1))
    done
    echo "passed $passed of $rounds"
    exit 0
fi
rounds=${1:-3}
. scripts/jdk.sh
use_jdk25
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stock" "$work/fixed"
cp "$here/siw-window/stock.patch" "$work/stock/0099-widen.patch"
cp "$here"/siw/*.patch "$work/fixed/"
cp "$here/siw-window/fixed.patch" "$work/fixed/0099-widen.patch"
for variant in stock fixed; do
    ko=$("$here/build-module.sh" --series "$work/$variant" siw)
    echo "== siw as the kernel has it$([ "$variant" = stock ] || echo ", with siw/'s series"), the accept window widened: $ko"
    rxe-vm/run.sh -n veth -t 900 -m "$ko" -e JAVA_HOME="$JAVA_HOME" -- \
        bash kernel/patches/siw-window.sh --guest "$rounds" | grep -E '^(round|passed)'
done
