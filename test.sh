#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, builds every module and runs
# every test, then the ibverbs-provider suite on the kernel's rxe in a micro-VM where
# qemu can run (skipped, with the reason, where it cannot). Exits non-zero when a test
# failed or when no test ran.
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

echo "== conformance matrix (every provider pair that ran)"
"$JAVA_HOME/bin/java" -cp "$(cat conformance-tests/target/conformance-classpath.txt):conformance-tests/target/classes" \
    dev.verbs4j.conformance.ConformanceMain --report-dir conformance-tests/target/conformance --merge | tail -n 5

scripts/test-summary.sh
[ "$vm_status" -eq 0 ]
