#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, builds every module and runs
# every test, then the ibverbs-provider suite on the kernel's rxe in a micro-VM where
# qemu can run (skipped, with the reason, where it cannot). Exits non-zero when a test
# failed, when no test ran, or when the conformance matrix's columns disagree unexplained.
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
cd "$root"
. scripts/jdk.sh
use_jdk25
echo "== JDK: $JAVA_HOME"

scripts/install-build-deps.sh

echo "== build and host tests (soft provider, ibverbs binding, conformance soft-soft)"
find . -path '*/target/surefire-reports*' -type d -prune -exec rm -rf {} + 2>/dev/null || true
rm -rf conformance-tests/target/conformance target/vm
build_start=$(date +%s)
./mvnw -B -ntp verify
echo "== host build and tests took $(( $(date +%s) - build_start )) s"

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
