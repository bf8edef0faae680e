#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, builds every module and runs
# every test, builds and runs the examples project against the installed artifacts, then
# the ibverbs-provider suite on the kernel's rxe in a micro-VM where qemu can run (skipped,
# with the reason, where it cannot): everything on the newest kernel, the ibverbs-rxe suite
# on the other kernels of the selection. Exits non-zero when a test
# failed, when no test ran, or when the conformance matrix's columns disagree unexplained.
#
#   test.sh [--kernels newest|releases|all|SELECTOR[,...]]
#
# --kernels (or VERBS4J_KERNELS) picks the kernels, as rxe-vm/fetch.sh does: releases by
# default (the kernel of each Debian release and backports, one per major.minor series), all
# for the newest of every series the archive holds, newest for the newest only.
set -euo pipefail
case "${1:-}" in
    --kernels) [ $# -ge 2 ] || { echo "usage: test.sh [--kernels SELECTION]" >&2; exit 2; }; export VERBS4J_KERNELS=$2 ;;
    --kernels=*) export VERBS4J_KERNELS=${1#--kernels=} ;;
    "") ;;
    *) echo "usage: test.sh [--kernels SELECTION]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")" && pwd)
cd "$root"
. scripts/jdk.sh
use_jdk25
echo "== JDK: $JAVA_HOME"
. scripts/maven.sh
use_maven
echo "== Maven: $MVN ($("$MVN" -B --version 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | head -n 1))"

scripts/install-build-deps.sh
# tshark and scapy are installed now: the capture checks must run, not skip.
export VERBS4J_REQUIRE_CAPTURE_TOOLS=1

# No tracked file names a package registry's or mirror's host: the scripts take the archive
# from the system's apt configuration and Maven from the system. Where a list of such hosts
# stands beside the checkout (shared/tools/package-hosts), it checks every tracked file.
hosts_check="$root/../shared/tools/package-hosts"
if [ -f "$hosts_check" ]; then
    echo "== tracked files naming a package host"
    bash "$hosts_check" --check
else
    echo "== tracked files naming a package host: not checked (no package-hosts list beside the checkout)"
fi

# README.md and docs/ against the tree: no link, path, option, property or case that no
# longer exists, and no generated table older than its sources that does not say so.
echo "== documents (scripts/docs-check.py)"
python3 scripts/docs-check.py --self-test
python3 scripts/docs-check.py

echo "== build and host tests (soft provider, ibverbs binding, conformance soft-soft)"
find . -path '*/target/surefire-reports*' -type d -prune -exec rm -rf {} + 2>/dev/null || true
rm -rf conformance-tests/target/conformance target/vm
build_start=$(date +%s)
"$MVN" -B -ntp -Dstyle.color=never verify
echo "== host build and tests took $(( $(date +%s) - build_start )) s"

# A project of its own (examples/) against the installed artifacts and the BOM, not the reactor.
scripts/examples.sh

# The command users run first, as they run it: the launcher puts the libraries on the module
# path, where only what the modules export can be reached.
echo "== the verbs4j command (module path): demo, devices, perf"
launcher_start=$(date +%s)
./verbs4j demo
./verbs4j devices > /dev/null
./verbs4j perf write_lat -n 2000
./verbs4j perf send_bw --repeat 2 -n 1000
echo "== the verbs4j command took $(( $(date +%s) - launcher_start )) s"

vm_status=0
scripts/vm-suite.sh || vm_status=$?

echo "== conformance matrix (every provider pair that ran) and whether its columns agree"
# --merge exits 1 when a case that ran on two or more columns fails in one of them with no
# listed finding for that column; with a single column there is nothing to compare.
merge_status=0
merge_log=$("$JAVA_HOME/bin/java" -cp "$(cat conformance-tests/target/conformance-classpath.txt):conformance-tests/target/classes" \
    dev.verbs4j.conformance.ConformanceMain --report-dir conformance-tests/target/conformance --merge) || merge_status=$?
printf '%s\n' "$merge_log"

summary_status=0
scripts/test-summary.sh || summary_status=$?
if [ "$merge_status" -ne 0 ]; then
    echo "FAILED: $(printf '%s\n' "$merge_log" | grep '^agreement:' || echo 'the conformance reports could not be merged')"
fi
[ "$summary_status" -eq 0 ] && [ "$vm_status" -eq 0 ] && [ "$merge_status" -eq 0 ]
