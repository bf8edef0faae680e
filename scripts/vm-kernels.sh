#!/usr/bin/env bash
# Runs the conformance suite against the ibverbs provider on rxe0 (both sides on the kernel)
# in the micro-VM once per kernel, each boot one column of the matrix named after its kernel
# (ibverbs-rxe-<release>, see scripts/vm-guest-kernel.sh), and prints each kernel's boot and
# suite time.
#
#   vm-kernels.sh [--kernels newest|releases|all|SELECTOR[,...]] [--except-default]
#
# --kernels is rxe-vm/fetch.sh's selection (default releases: the kernel of each Debian
# release and backports, one per major.minor series), fetched where missing.
# --except-default leaves out the kernel rxe-vm/run.sh boots by default (scripts/vm-suite.sh
# has run everything there). On its own (without --except-default) it then checks the kernel
# columns against the findings lists (scripts/vm-evaluate.py --kernel-columns) and writes the
# matrix and the view by kernel (conformance-tests/target/conformance/conformance-kernels.md).
# Needs a finished host build (mvn verify).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/jdk.sh
use_jdk25

usage() { sed -n 's/^#   vm-kernels.sh /usage: vm-kernels.sh /p' "$0" >&2; exit 2; }
selection=releases
except_default=0
while [ $# -gt 0 ]; do
    case $1 in
        --kernels) [ $# -ge 2 ] || usage; selection=$2; shift ;;
        --except-default) except_default=1 ;;
        *) usage ;;
    esac
    shift
done

mkdir -p target/vm
if ! kernels=$(rxe-vm/fetch.sh --kernels "$selection" 2> target/vm/fetch-kernels.log); then
    tail -n 20 target/vm/fetch-kernels.log
    echo "== kernels: rxe-vm/fetch.sh --kernels $selection failed (log: target/vm/fetch-kernels.log)"
    exit 1
fi
default_release=$(RXEVM_KERNEL='' bash -c '. rxe-vm/lib.sh; rxevm_load_state && echo "$KERNEL_RELEASE"')

status=0
while read -r release version; do
    [ -n "$release" ] || continue
    if [ "$except_default" = 1 ] && [ "$release" = "$default_release" ]; then
        continue
    fi
    out=target/vm/kernels/$release
    rm -rf "$out"
    mkdir -p "$out"
    echo "== kernel $release ($version): the ibverbs-rxe suite"
    rxe-vm/run.sh -k "$release" -n veth -t 900 -e JAVA_HOME="$JAVA_HOME" -- bash scripts/vm-guest-kernel.sh \
        > "$out/guest.log" 2>&1
    vm_status=$?
    grep -vE '^rxe-vm: kernel ' "$out/guest.log"
    boot=$(sed -nE 's/^rxe-vm: kernel .*command started at guest uptime ([0-9.?]+) s, total ([0-9.]+) s$/\1/p' "$out/guest.log")
    total=$(sed -nE 's/^rxe-vm: kernel .*command started at guest uptime ([0-9.?]+) s, total ([0-9.]+) s$/\2/p' "$out/guest.log")
    suite=$(sed -nE 's/^== suite on kernel .* took ([0-9]+) s$/\1/p' "$out/guest.log")
    timing="package $version: boot ${boot:-?} s, suite ${suite:-?} s, VM total ${total:-?} s"
    echo "$timing" > "$out/timing.txt"
    echo "== kernel $release: $timing"
    if [ "$vm_status" -ne 0 ]; then
        echo "== kernel $release: the VM run failed (status $vm_status)"
        status=1
    fi
done <<<"$kernels"

[ "$except_default" = 0 ] || exit "$status"
"$JAVA_HOME/bin/java" -cp "$(cat conformance-tests/target/conformance-classpath.txt):conformance-tests/target/classes" \
    dev.verbs4j.conformance.ConformanceMain --report-dir conformance-tests/target/conformance --merge | grep -E '^(report|agreement|DISAGREE)'
python3 scripts/vm-evaluate.py --kernel-columns || status=1
exit "$status"
