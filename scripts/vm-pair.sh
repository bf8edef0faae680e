#!/usr/bin/env bash
# The conformance suite across two hosts: two qemu guests of the newest kernel joined by one
# virtual Ethernet link (rxe-vm/pair.sh), each column with its suite in one guest and its agent
# in the other (scripts/vm-guest-pair.sh), then each column judged case for case against its
# one-host column of the last test run (scripts/vm-evaluate.py --pairs). Needs a finished
# ./test.sh (the build and the one-host columns' reports).
#
#   scripts/vm-pair.sh [--families F,F...] [--no-judge] [COLUMN...]
#
# COLUMN: vm-guest-pair.sh's names (default: all eight). --families runs only those families
# in every column (and compares only them); --no-judge leaves the judging to the caller
# (scripts/vm-suite.sh, whose vm-evaluate.py run judges everything).
set -uo pipefail
cd "$(dirname "$0")/.."
families=
judge=1
while [ $# -gt 0 ]; do
    case $1 in
        --families) families=$2; shift 2 ;;
        --no-judge) judge=0; shift ;;
        *) break ;;
    esac
done
columns=("$@")
[ ${#columns[@]} -gt 0 ] || columns=(pair-soft-to-rxe pair-rxe-to-soft pair-rxe-to-rxe pair-soft-to-soft
    cm-pair-soft-to-rxe cm-pair-rxe-to-soft cm-pair-rxe-to-rxe cm-pair-soft-to-soft)
rm -rf target/vm/pair
mkdir -p target/vm/pair
printf '%s\n' "${columns[@]}" > target/vm/pair/columns.txt
printf '%s\n' "$families" | tr ',' '\n' | sed '/^$/d' > target/vm/pair/families.txt
for c in "${columns[@]}"; do rm -f "conformance-tests/target/conformance/$c.json"; done
start=$(date +%s)
rxe-vm/pair.sh -t 3600 -e JAVA_HOME="$JAVA_HOME" -e VERBS4J_PAIR_FAMILIES="$families" \
    -a "bash scripts/vm-guest-pair.sh ${columns[*]}" -b "bash scripts/vm-guest-pair.sh ${columns[*]}" 2>&1 |
    tee target/vm/pair/pair.log | grep -E '^\[.\] (==|====)|^rxe-vm'
echo "== two hosts took $(( $(date +%s) - start )) s"
[ "$judge" = 0 ] || python3 scripts/vm-evaluate.py --pairs
