#!/usr/bin/env bash
# Runs in both guests of rxe-vm/pair.sh (RXEVM_SIDE a or b): the conformance suite with its
# two sides on two hosts, joined by one virtual Ethernet link. Each column has its suite (the
# requester) in one guest and its agent (the responder) in the other, so the agent's memory
# travels over the control channel (the guests share no tmpfs). Both guests walk the same
# list of columns in the same order; for each, one starts the agent and waits for it to end,
# the other runs the suite against it (the suite waits up to a minute for the agent).
#
# Addresses (rxe-vm/guest-init.sh, link-a and link-b): rxe0 on eth0, A 10.9.1.1 and
# B 10.9.1.2; the soft provider in namespace peer, A 10.9.1.11 and B 10.9.1.12.
#
#   scripts/vm-guest-pair.sh [COLUMN...]    (default: every column; VERBS4J_PAIR_FAMILIES=F,F
#                                            runs only those families in each)
#
# Reports: conformance-tests/target/conformance/LABEL.json; logs and exit statuses in
# target/vm/pair/. Exits 0 when every step ran (the judging is scripts/vm-evaluate.py's).
set -uo pipefail
source scripts/vm-guest-env.sh
side=${RXEVM_SIDE:?"run by rxe-vm/pair.sh, which sets RXEVM_SIDE"}
out=target/vm/pair
mkdir -p "$out"
classpath=$(suite_classpath)
suite_main="dev.verbs4j.conformance.ConformanceMain --report-dir conformance-tests/target/conformance --timeout-ms 30000"
agent_main="dev.verbs4j.conformance.agent.AgentMain"
# The same selections as the one-host columns these are compared with (scripts/vm-guest.sh).
requester_keys=(--exclude "access.RemoteAccessMatrixTest#*.mw*" --exclude "access.RemoteAccessMatrixTest#*.fr.*"
                --exclude "access.RemoteAccessMatrixTest#*.odp.*")
cm_families=(--connect cm --exclude access --exclude memwindow --exclude odp --exclude misuse)

# A JVM in the root namespace or in namespace peer ($1), with java_run's arguments; 20
# minutes at most (an agent whose suite never came must not hold its guest).
jrun() {
    local where=$1 ns=()
    shift
    [ "$where" = root ] || ns=(ip netns exec peer)
    timeout 1200 "${ns[@]}" bash -c 'source scripts/vm-guest-env.sh; java_run "$@"' _ "$@"
}

# The soft provider's device in namespace peer of guest $1, with the kernel's FLUSH ICRC
# variant when $2 (the other side's provider) is the kernel's.
soft_opts() {
    local host=11
    [ "$1" = a ] || host=12
    printf '%s' "-Dverbs4j.soft.devices=soft0=10.9.1.$host"
    [ "$2" != ibverbs ] || printf ' %s' "-Dverbs4j.soft.rxeFlushIcrc=true"
}

# Where a side of provider $1 lives in guest $2: its namespace and its address.
where() { if [ "$1" = soft ]; then echo peer; else echo root; fi; }
address() {
    local host
    case "$1:$2" in soft:a) host=11 ;; soft:b) host=12 ;; ibverbs:a) host=1 ;; *) host=2 ;; esac
    echo "10.9.1.$host"
}

# $1 label, $2 the suite's guest, $3 its provider, $4 the agent's provider, $5 the agent's
# TCP port, then the suite's options.
column() {
    local label=$1 suite_side=$2 local_provider=$3 remote_provider=$4 port=$5
    shift 5
    local agent_side=a
    [ "$suite_side" = b ] || agent_side=b
    local local_device=soft0 remote_device=soft0 local_jvm=() remote_jvm=()
    [ "$local_provider" = soft ] || local_device=rxe0
    [ "$remote_provider" = soft ] || remote_device=rxe0
    [ "$local_provider" != soft ] || read -r -a local_jvm <<<"$(soft_opts "$suite_side" "$remote_provider")"
    [ "$remote_provider" != soft ] || read -r -a remote_jvm <<<"$(soft_opts "$agent_side" "$local_provider")"
    local agent_at
    agent_at=$(address "$remote_provider" "$agent_side"):$port
    local start=$SECONDS
    if [ "$side" = "$agent_side" ]; then
        jrun "$(where "$remote_provider")" "${remote_jvm[@]}" -cp "$classpath" $agent_main --listen "$agent_at" \
            > "$out/$label-agent.log" 2>&1
        echo $? > "$out/$label-agent.rc"
        echo "== $label: agent ($remote_provider on guest $agent_side) took $(( SECONDS - start )) s"
    else
        jrun "$(where "$local_provider")" "${local_jvm[@]}" -cp "$classpath" $suite_main \
            --provider "$local_provider" --device "$local_device" --peer-provider "$remote_provider" \
            --peer-device "$remote_device" --peer-agent "$agent_at" --label "$label" "${families[@]}" "$@" > "$out/$label.log" 2>&1
        echo $? > "$out/$label.rc"
        grep -E '^==== verbs4j|agent at' "$out/$label.log"
        echo "== $label took $(( SECONDS - start )) s"
    fi
}

want() { [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" $1 "* ]]; }
selected=("$@")
# VERBS4J_PAIR_FAMILIES (scripts/vm-pair.sh --families): only these families, in every column.
families=()
for f in ${VERBS4J_PAIR_FAMILIES//,/ }; do families+=(--select "$f"); done
want pair-soft-to-rxe && column pair-soft-to-rxe b soft ibverbs 18700 "${requester_keys[@]}"
want pair-rxe-to-soft && column pair-rxe-to-soft a ibverbs soft 18701 "${requester_keys[@]}"
want pair-rxe-to-rxe && column pair-rxe-to-rxe a ibverbs ibverbs 18702
want pair-soft-to-soft && column pair-soft-to-soft a soft soft 18703
want cm-pair-soft-to-rxe && column cm-pair-soft-to-rxe b soft ibverbs 18704 "${cm_families[@]}"
want cm-pair-rxe-to-soft && column cm-pair-rxe-to-soft a ibverbs soft 18705 "${cm_families[@]}"
want cm-pair-rxe-to-rxe && column cm-pair-rxe-to-rxe a ibverbs ibverbs 18706 "${cm_families[@]}"
want cm-pair-soft-to-soft && column cm-pair-soft-to-soft a soft soft 18707 "${cm_families[@]}"
exit 0
