#!/usr/bin/env bash
# The conformance suite across two hosts: two qemu guests of the newest kernel joined by one
# virtual Ethernet link (rxe-vm/pair.sh), each column with its suite in one guest and its agent
# in the other (scripts/vm-guest-pair.sh), then each column judged case for case against its
# one-host column of the last test run (scripts/vm-evaluate.py --pairs). Needs a finished
# ./test.sh (the build and the one-host columns' reports).
#
#   scripts/vm-pair.sh [--families F,F...] [--cm-families F,F...] [--reboot|--reboot-only] [--no-judge] [COLUMN...]
#
# COLUMN: vm-guest-pair.sh's names (default: all eight). --families runs only those families
# in every column (and compares only them), --cm-families those in the cm- columns; --reboot then reboots guest B under guest A's
# connected queue pairs, both ways between soft and rxe (scripts/vm-guest-reboot.sh), and
# --reboot-only does that alone; --no-judge leaves the judging to the caller
# (scripts/vm-suite.sh, whose vm-evaluate.py run judges everything).
set -uo pipefail
cd "$(dirname "$0")/.."
families=
cm_families=
judge=1
reboot=0
all=1
while [ $# -gt 0 ]; do
    case $1 in
        --families) families=$2; shift 2 ;;
        --cm-families) cm_families=$2; shift 2 ;;
        --reboot) reboot=1; shift ;;
        --reboot-only) reboot=1; all=0; shift ;;
        --no-judge) judge=0; shift ;;
        *) break ;;
    esac
done
columns=("$@")
[ ${#columns[@]} -gt 0 ] || [ "$all" = 0 ] || columns=(pair-soft-to-rxe pair-rxe-to-soft pair-rxe-to-rxe pair-soft-to-soft
    cm-pair-soft-to-rxe cm-pair-rxe-to-soft cm-pair-rxe-to-rxe cm-pair-soft-to-soft)
rm -rf target/vm/pair
mkdir -p target/vm/pair
printf '%s\n' "${columns[@]}" | sed '/^$/d' > target/vm/pair/columns.txt
printf '%s\n' "$families" | tr ',' '\n' | sed '/^$/d' > target/vm/pair/families.txt
printf '%s\n' "${cm_families:-$families}" | tr ',' '\n' | sed '/^$/d' > target/vm/pair/cm-families.txt
printf '%s\n' "$reboot" > target/vm/pair/reboot.txt
command_a=true
[ ${#columns[@]} = 0 ] || command_a="bash scripts/vm-guest-pair.sh ${columns[*]}"
command_b=$command_a
again=()
if [ "$reboot" = 1 ]; then
    command_a+="; bash scripts/vm-guest-reboot.sh request"
    command_b+="; bash scripts/vm-guest-reboot.sh respond-then-reboot"
    again=(-B "bash scripts/vm-guest-reboot.sh respond")
fi
for c in "${columns[@]}" pair-reboot; do rm -f "conformance-tests/target/conformance/$c.json"; done
start=$(date +%s)
rxe-vm/pair.sh -t 3600 -e JAVA_HOME="$JAVA_HOME" -e VERBS4J_PAIR_FAMILIES="$families" -e VERBS4J_PAIR_CM_FAMILIES="$cm_families" \
    -a "$command_a" -b "$command_b" "${again[@]}" 2>&1 |
    tee target/vm/pair/pair.log | grep -E '^\[.\] (==|====)|^rxe-vm'
echo "== two hosts took $(( $(date +%s) - start )) s"
[ "$judge" = 0 ] || python3 scripts/vm-evaluate.py --pairs
