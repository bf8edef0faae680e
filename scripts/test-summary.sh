#!/usr/bin/env bash
# Adds up the JUnit XML reports of every module (and of runs copied back from the VM)
# and prints one closing line; exits non-zero when a test failed or none ran.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tests=0; failures=0; errors=0; skipped=0
while IFS= read -r -d '' report; do
    line=$(grep -m1 -o '<testsuite [^>]*>' "$report" || true)
    [ -n "$line" ] || continue
    for field in tests failures errors skipped; do
        value=$(printf '%s' "$line" | grep -o " $field=\"[0-9]*\"" | grep -o '[0-9]*' || echo 0)
        eval "$field=\$(( $field + ${value:-0} ))"
    done
done < <(find "$root" -path '*/target/*-reports/TEST-*.xml' -print0 2>/dev/null)
failed=$((failures + errors))
passed=$((tests - failed - skipped))
echo "tests: $passed passed, $failed failed, $skipped skipped"
if [ "$tests" -eq 0 ]; then
    echo "no test ran" >&2
    exit 1
fi
[ "$failed" -eq 0 ]
