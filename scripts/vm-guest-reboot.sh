#!/usr/bin/env bash
# Runs in the guests of rxe-vm/pair.sh: a peer that goes away. Guest B holds responders
# (rxe0 in the root namespace, the soft provider in namespace peer) and reboots when asked;
# guest A holds one requester per provider, each connected to B's other provider (soft on A
# to rxe on B, rxe on A to soft on B), with a loopback pair of its own beside it. The rxe
# requester asks B to reboot once both are connected; each then checks that a write to the
# vanished peer ends in RETRY_EXC_ERR within its queue pair's timeout, that its loopback
# pair still works, and that a new connection works once B is back
# (dev.verbs4j.conformance.twohost.PeerRebootMain).
#
#   scripts/vm-guest-reboot.sh request              (guest A)
#   scripts/vm-guest-reboot.sh respond-then-reboot  (guest B, first boot)
#   scripts/vm-guest-reboot.sh respond              (guest B, after the reboot)
#
# Reports: target/vm/pair/reboot-NAME.tsv (one line a check); logs beside them.
set -uo pipefail
source scripts/vm-guest-env.sh
out=target/vm/pair
mkdir -p "$out"
classpath=$(suite_classpath)
main=dev.verbs4j.conformance.twohost.PeerRebootMain
# B's addresses: rxe0 10.9.1.2 (data 18720, requests 18721), soft 10.9.1.12 (18722, 18723).
rxe_b=(--listen 10.9.1.2:18720 --control 10.9.1.2:18721)
soft_b=(--listen 10.9.1.12:18722 --control 10.9.1.12:18723)

# $1: root or peer (the namespace), then java_run's arguments; 10 minutes at most.
jrun() {
    local where=$1 ns=()
    shift
    [ "$where" = root ] || ns=(ip netns exec peer)
    timeout 600 "${ns[@]}" bash -c 'source scripts/vm-guest-env.sh; java_run "$@"' _ "$@"
}

respond() {
    local boot=$1 reboot=()
    if [ "$boot" = again ] && [ -e "$out/reboot-not-rebooted" ]; then
        echo "== reboot responders: the first boot ended without a reboot; nothing to answer"
        return 1
    fi
    [ "$boot" = first ] && reboot=(--reboot-on-request)
    jrun root -cp "$classpath" $main responder --provider ibverbs --device rxe0 "${rxe_b[@]}" "${reboot[@]}" \
        > "$out/reboot-responder-rxe-$boot.log" 2>&1 &
    local rxe=$!
    jrun peer -Dverbs4j.soft.devices=soft0=10.9.1.12 -cp "$classpath" $main responder --provider soft --device soft0 \
        "${soft_b[@]}" "${reboot[@]}" > "$out/reboot-responder-soft-$boot.log" 2>&1 &
    local soft=$!
    local status=0
    wait "$rxe" || status=$?
    wait "$soft" || status=$?
    echo "== reboot responders ($boot boot) ended with status $status"
    # Still here: the requesters gave up before asking for the reboot (their report says why).
    [ "$boot" != first ] || touch "$out/reboot-not-rebooted"
    return "$status"
}

request() {
    local meet=/tmp/reboot-meet start=$SECONDS
    rm -rf "$meet" "$out"/reboot-*.tsv "$out/reboot-not-rebooted"
    jrun peer -Dverbs4j.soft.devices=soft0=10.9.1.11 -cp "$classpath" $main requester --provider soft --device soft0 \
        --name softToRxe --peer 10.9.1.2:18720 --control 10.9.1.2:18721 --report "$out/reboot-softToRxe.tsv" \
        --meet "$meet" > "$out/reboot-requester-softToRxe.log" 2>&1 &
    local soft=$!
    jrun root -cp "$classpath" $main requester --provider ibverbs --device rxe0 --name rxeToSoft \
        --peer 10.9.1.12:18722 --control 10.9.1.12:18723 --report "$out/reboot-rxeToSoft.tsv" --meet "$meet" \
        --leader --wait-for softToRxe > "$out/reboot-requester-rxeToSoft.log" 2>&1
    local status=$?
    wait "$soft" || status=$?
    grep -h 'RETRY_EXC_ERR after' "$out"/reboot-requester-*.log
    echo "== reboot checks: $(cat "$out"/reboot-*.tsv 2>/dev/null | grep -c $'\tpass') passed," \
        "$(cat "$out"/reboot-*.tsv 2>/dev/null | grep -c $'\tfail') failed, in $(( SECONDS - start )) s"
    return "$status"
}

case ${1:-} in
    request) request ;;
    respond-then-reboot) respond first ;;
    respond) respond again ;;
    *) echo "usage: $0 request|respond-then-reboot|respond" >&2; exit 2 ;;
esac
