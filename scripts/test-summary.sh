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
done < <(find "$root" -path '*/target/surefire-reports*/TEST-*.xml' -print0 2>/dev/null)
failed=$((failures + errors))
passed=$((tests - failed - skipped))
# The kernel-rxe run in the micro-VM, summed over its columns (ibverbs-rxe, soft-to-rxe,
# rxe-to-soft, interop), then one line per column: its cases, plus findings (kernel behaviour
# that differs from the IBTA specification, listed with the reason) counted apart, not as passes.
vm_summary="$root/target/vm/summary.env"
if [ -f "$vm_summary" ]; then
    # shellcheck disable=SC1090
    . "$vm_summary"
    if [ "${VM_STATUS:-}" = ran ]; then
        echo "kernel rxe (micro-VM): ${VM_PASSED} passed, ${VM_FAILED} failed, ${VM_SKIPPED} skipped, ${VM_FINDINGS} findings"
        for ((i = 1; i <= ${VM_COLUMNS:-0}; i++)); do
            column="VM_COLUMN_$i"
            echo "  ${!column}"
        done
        tests=$((tests + VM_PASSED + VM_FAILED + VM_SKIPPED))
        passed=$((passed + VM_PASSED))
        failed=$((failed + VM_FAILED))
        skipped=$((skipped + VM_SKIPPED))
    else
        echo "kernel rxe (micro-VM): SKIPPED: ${VM_REASON:-}"
    fi
fi
# The replicated log's power-loss runs in the micro-VM (scripts/vm-power-loss.py): the run on
# the soft provider and its negative control count one test each; the kernel rxe's line is a
# skip with its reason.
for result in "$root/target/vm/power-loss.txt" "$root/target/vm/power-loss-negative.txt"; do
    [ -f "$result" ] || continue
    while IFS= read -r line; do
        echo "$line"
        case $line in
            "power-loss ibverbs-rxe: "*) tests=$((tests + 1)); skipped=$((skipped + 1)) ;;
            *": PASSED: "*) tests=$((tests + 1)); passed=$((passed + 1)) ;;
            *) tests=$((tests + 1)); failed=$((failed + 1)) ;;
        esac
    done < "$result"
done
echo "tests: $passed passed, $failed failed, $skipped skipped"
# What failed in the micro-VM, once more at the very end (scripts/vm-evaluate.py printed each
# whole, above the matrix): the first 20, 300 characters of each.
if [ -s "$root/target/vm/problems.txt" ]; then
    head -n 20 "$root/target/vm/problems.txt" | cut -c1-300 | sed 's/^/failed: /'
    more=$(( $(wc -l < "$root/target/vm/problems.txt") - 20 ))
    [ "$more" -le 0 ] || echo "failed: ... and $more more (target/vm/problems.txt)"
fi
if [ "$tests" -eq 0 ]; then
    echo "no test ran" >&2
    exit 1
fi
[ "$failed" -eq 0 ]
