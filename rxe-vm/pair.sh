#!/usr/bin/env bash
# Boots two guests joined by one virtual Ethernet link, runs a command in
# each, and exits with A's status (B's when A's is 0).
#
#   pair.sh [-k KERNEL] [-t TIMEOUT_S] [-e VAR=VAL]... [-m MODULE.ko]... -a COMMAND_A -b COMMAND_B [-B COMMAND_B_AGAIN]
#
# -B boots B a second time once its first boot ends, and runs COMMAND_B_AGAIN
# there: B's first command may end by rebooting its guest (qemu runs with
# -no-reboot, so a reboot ends the first boot), and A sees B go and come back
# while A's guest runs on. B's status is then the second boot's.
# Each guest is run.sh's (-n link-a, -n link-b): its own kernel, its own rxe0
# on its own eth0 (A 10.9.1.1, B 10.9.1.2), and a namespace "peer" for a
# user-space RoCE engine on the same link (A 10.9.1.11, B 10.9.1.12). The
# link is qemu's UDP datagram netdev on the host's loopback: what one guest
# sends, the other receives, and nothing else is on it. Each command is a
# bash command line, run in the current directory with RXEVM_SIDE=a or b in
# its environment; their output comes back prefixed "[a] " and "[b] ".
# Each guest gets RXEVM_PAIR_MEMORY_MIB (default 3072) and RXEVM_PAIR_CPUS
# (default 2: with one, a case that closes a completion channel while another
# thread waits on it in a loop livelocks, the closer never finding the waiter out).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
    sed -n 's/^#   pair.sh /usage: pair.sh /p' "$0" >&2
    exit 2
}

RUN_ARGS=()
COMMAND_A=
COMMAND_B=
COMMAND_B_AGAIN=
while getopts ':k:t:e:m:a:b:B:h' opt; do
    case $opt in
        k|t|e|m) RUN_ARGS+=("-$opt" "$OPTARG") ;;
        a) COMMAND_A=$OPTARG ;;
        b) COMMAND_B=$OPTARG ;;
        B) COMMAND_B_AGAIN=$OPTARG ;;
        *) usage ;;
    esac
done
[ -n "$COMMAND_A" ] && [ -n "$COMMAND_B" ] || usage

mkdir -p "$RXEVM_CACHE"
exec 9>"$RXEVM_CACHE/vm.lock"
if ! flock -n 9; then
    rxevm_say "waiting for another rxe-vm run to finish"
    flock 9
fi
# Built once here, so the two guests do not build it at once.
"$RXEVM_HOME/initramfs.sh" >/dev/null

export RXEVM_LOCK_HELD=1 RXEVM_MEMORY_MIB=${RXEVM_PAIR_MEMORY_MIB:-3072} RXEVM_CPUS=${RXEVM_PAIR_CPUS:-2}
run_side() { # $1 = a or b, $2 = command
    "$RXEVM_HOME/run.sh" -n "link-$1" "${RUN_ARGS[@]}" -e "RXEVM_SIDE=$1" -- bash -c "$2" 2>&1 9>&- |
        sed -u "s/^/[$1] /"
    return "${PIPESTATUS[0]}"
}

# B's boots, one after the other: the first one's status only matters without -B.
run_b() {
    local first=0
    run_side b "$COMMAND_B" || first=$?
    [ -n "$COMMAND_B_AGAIN" ] || return "$first"
    rxevm_say "pair: guest B's first boot ended (status $first); booting B again"
    run_side b "$COMMAND_B_AGAIN"
}

side_b=0
run_b &
pid_b=$!
side_a=0
run_side a "$COMMAND_A" || side_a=$?
wait "$pid_b" || side_b=$?
rxevm_say "pair: guest A exited with $side_a, guest B with $side_b"
[ "$side_a" != 0 ] && exit "$side_a"
exit "$side_b"
