#!/usr/bin/env bash
# Runs in both guests of rxe-vm/pair.sh (RXEVM_SIDE a or b): the conformance suite with its
# two sides on two hosts, joined by one virtual Ethernet link. Each column has its suite (the
# requester) in guest A and its agent (the responder) in guest B, so the agent's memory
# travels over the control channel (the guests share no tmpfs); the suite waits up to a
# minute for its agent.
#
# Addresses (rxe-vm/guest-init.sh, link-a and link-b): rxe0 on eth0, A 10.9.1.1 and
# B 10.9.1.2; the soft provider in namespace peer, A 10.9.1.11 and B 10.9.1.12.
#
# Every suite runs in guest A and every agent in guest B, one JVM a provider on each side:
# A's soft suite makes the runs of the columns whose requester is soft, one after another
# (ConformanceMain ... --next ...), then A's ibverbs suite those whose requester is rxe0; B's
# soft agent and ibverbs agent each serve their columns' sessions in turn (--sessions N).
# Under emulation a JVM's start and a device's opening are 20-27 s of each column; a run
# starts from its JVM's options and opens its devices afresh, as in a JVM of its own. The soft
# JVMs all speak the kernel's FLUSH ICRC variant (soft to soft too, both ends alike); the
# one-host soft columns check the specification's.
#
#   scripts/vm-guest-pair.sh [COLUMN...]    (default: every column; VERBS4J_PAIR_FAMILIES=F,F
#                                            runs only those families in each, and
#                                            VERBS4J_PAIR_CM_FAMILIES=F,F in each cm- column)
#
# Reports: conformance-tests/target/conformance/LABEL.json; logs and exit statuses in
# target/vm/pair/. Exits 0 when every step ran (the judging is scripts/vm-evaluate.py's).
set -uo pipefail
source scripts/vm-guest-env.sh
side=${RXEVM_SIDE:?"run by rxe-vm/pair.sh, which sets RXEVM_SIDE"}
out=target/vm/pair
mkdir -p "$out"
classpath=$(suite_classpath)
suite_main=dev.verbs4j.conformance.ConformanceMain
# Every run of a suite JVM names all of its options (a run inherits none from the one before).
suite_common="--report-dir conformance-tests/target/conformance --timeout-ms 30000"
agent_main="dev.verbs4j.conformance.agent.AgentMain"
# The same selections as the one-host columns these are compared with (scripts/vm-guest.sh).
requester_keys=(--exclude "access.RemoteAccessMatrixTest#*.mw*" --exclude "access.RemoteAccessMatrixTest#*.fr.*"
                --exclude "access.RemoteAccessMatrixTest#*.odp.*")
cm_families=(--connect cm --exclude access --exclude memwindow --exclude odp --exclude misuse)
soft_a=(-Dverbs4j.soft.devices=soft0=10.9.1.11 -Dverbs4j.soft.rxeFlushIcrc=true)
soft_b=(-Dverbs4j.soft.devices=soft0=10.9.1.12 -Dverbs4j.soft.rxeFlushIcrc=true)
# B's agents: the ibverbs one on rxe0's address, the soft one on the soft device's.
declare -A agent_at=([ibverbs]=10.9.1.2:18702 [soft]=10.9.1.12:18703)

# A JVM in the root namespace or in namespace peer ($1), with java_run's arguments; 30
# minutes at most (an agent whose suite never came must not hold its guest).
jrun() {
    local where=$1 ns=()
    shift
    [ "$where" = root ] || ns=(ip netns exec peer)
    timeout 1800 "${ns[@]}" bash -c 'source scripts/vm-guest-env.sh; java_run "$@"' _ "$@"
}

want() { [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" $1 "* ]]; }
selected=("$@")
# VERBS4J_PAIR_FAMILIES (scripts/vm-pair.sh --families): only these families, in every column;
# VERBS4J_PAIR_CM_FAMILIES (--cm-families), when set, instead of them in the cm- columns.
families=() cm_selected=()
for f in ${VERBS4J_PAIR_FAMILIES//,/ }; do families+=(--select "$f"); done
cm_list=${VERBS4J_PAIR_CM_FAMILIES:-${VERBS4J_PAIR_FAMILIES:-}}
for f in ${cm_list//,/ }; do cm_selected+=(--select "$f"); done

# The columns: label, the requester's provider, the responder's, then the column's own options.
columns=(
    "pair-soft-to-rxe soft ibverbs ${requester_keys[*]}"
    "pair-soft-to-soft soft soft"
    "cm-pair-soft-to-rxe soft ibverbs ${cm_families[*]}"
    "cm-pair-soft-to-soft soft soft ${cm_families[*]}"
    "pair-rxe-to-soft ibverbs soft ${requester_keys[*]}"
    "pair-rxe-to-rxe ibverbs ibverbs"
    "cm-pair-rxe-to-soft ibverbs soft ${cm_families[*]}"
    "cm-pair-rxe-to-rxe ibverbs ibverbs ${cm_families[*]}"
)
declare -A runs=([soft]="" [ibverbs]="") sessions=([soft]=0 [ibverbs]=0) labels=([soft]="" [ibverbs]="")
for column in "${columns[@]}"; do
    read -r label requester responder options <<<"$column"
    want "$label" || continue
    device=rxe0 peer_device=rxe0
    [ "$requester" = ibverbs ] || device=soft0
    [ "$responder" = ibverbs ] || peer_device=soft0
    [ -z "${runs[$requester]}" ] || runs[$requester]+=" --next"
    runs[$requester]+=" $suite_common --provider $requester --device $device --peer-provider $responder --peer-device $peer_device"
    selection=${families[*]}
    [[ "$label" != cm-* ]] || selection=${cm_selected[*]}
    runs[$requester]+=" --peer-agent ${agent_at[$responder]} --label $label $selection $options"
    labels[$requester]+=" $label"
    sessions[$responder]=$(( ${sessions[$responder]} + 1 ))
done

if [ "$side" = b ]; then
    pids=()
    for provider in soft ibverbs; do
        [ "${sessions[$provider]}" -gt 0 ] || continue
        where=root jvm=()
        [ "$provider" = ibverbs ] || { where=peer; jvm=("${soft_b[@]}"); }
        (
            start=$SECONDS
            jrun "$where" "${jvm[@]}" -cp "$classpath" $agent_main --listen "${agent_at[$provider]}" \
                --sessions "${sessions[$provider]}" > "$out/agent-$provider.log" 2>&1
            echo $? > "$out/agent-$provider.rc"
            echo "== $provider agent (${sessions[$provider]} sessions on guest b) took $(( SECONDS - start )) s"
        ) &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    exit 0
fi
# One suite after the other: side by side, the two took longer than in turn (the guests'
# virtual CPUs share the host's cores, and the JVMs' work is CPU-bound under emulation).
for provider in soft ibverbs; do
    [ -n "${runs[$provider]}" ] || continue
    where=root jvm=()
    [ "$provider" = ibverbs ] || { where=peer; jvm=("${soft_a[@]}"); }
    start=$SECONDS
    # The options are words without blanks or quotes inside (the globs stay unexpanded: set -f).
    set -f
    # shellcheck disable=SC2086
    jrun "$where" "${jvm[@]}" -cp "$classpath" $suite_main ${runs[$provider]} > "$out/suite-$provider.log" 2>&1
    echo $? > "$out/suite-$provider.rc"
    set +f
    grep -E '^==== verbs4j|agent at' "$out/suite-$provider.log"
    echo "== the $provider suite's columns (${labels[$provider]# }) took $(( SECONDS - start )) s"
done
exit 0
