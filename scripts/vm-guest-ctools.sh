#!/usr/bin/env bash
# Runs inside the rxe micro-VM, from scripts/vm-guest.sh: rdma-core's ibv_*_pingpong programs
# on rxe0 (root namespace, 10.9.0.1) against `verbs4j pingpong --compat` on a soft device in
# namespace 'peer' (10.9.0.2), both directions, each variant the programs offer that the
# kernel rxe runs. One line per pairing goes to target/vm/c-tools-pingpong.tsv:
#   case id<TAB>pass|fail|skip<TAB>detail
# scripts/vm-evaluate.py turns every target/vm/c-tools*.tsv into the c-tools column.
# CTOOLS_ONLY=REGEX runs only the pairings whose program#variant matches.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/vm-guest-env.sh
out=target/vm
tsv=$out/c-tools-pingpong.tsv
: > "$tsv"
bin=$(dirname "$LD_LIBRARY_PATH")/bin
# The soft sides ("v4j ARGS") run one after another in one JVM in namespace 'peer' (start_side).
tcp_port=18700
iters=50

# One pairing: $1 = program, $2 = variant, $3 = the C side's options, $4 = the soft side's
# options, $5 = c-server or soft-server, $6 = text the refusing side prints when the
# pairing is expected to be refused (empty when it must run).
pair() {
    local program=$1 variant=$2 copts=$3 sopts=$4 direction=$5 refusal=$6
    tcp_port=$((tcp_port + 1))
    local id="ctools/$program#$variant.${direction/-/}" name="$program-$variant-$direction"
    local c="$bin/$program -d rxe0 -g 1 -n $iters -p $tcp_port $copts"
    local s="v4j pingpong --compat $program --address 10.9.0.2 -n $iters -p $tcp_port $sopts"
    local slog=$out/$name-soft.log clog=$out/$name-c.log
    local crc src side
    if [ "$direction" = c-server ]; then
        # The soft client retries its connection until the C server listens.
        start_side - "$c" "$clog" 90
        local c_side=$side
        start_side peer "$s 10.9.0.1" "$slog"
        end_side "$side" "$slog" 100
        src=$?
        end_side "$c_side"
        crc=$?
    else
        start_side peer "$s" "$slog"
        local soft_side=$side
        if await 60 "$soft_side" listening peer "$tcp_port"; then
            start_side - "$c 10.9.0.2" "$clog" 90
            end_side "$side"
            crc=$?
        else
            crc=124
            echo "the soft server did not listen on TCP port $tcp_port (its threads' stacks: $out/batch.log)" > "$clog"
            dump_java_threads "$(side_process "$soft_side")"
        fi
        end_side "$soft_side" "$slog" 100
        src=$?
    fi
    local outcome detail
    if [ -n "$refusal" ]; then
        if grep -qh "$refusal" "$out/$name-c.log" "$out/$name-soft.log"; then
            outcome=skip
            detail="refused as expected: $(grep -h "$refusal" "$out/$name-c.log" "$out/$name-soft.log" | head -n 1)"
        else
            outcome=fail
            detail="expected the refusal '$refusal'; exit status C $crc, soft $src"
        fi
    elif [ "$crc" = 0 ] && [ "$src" = 0 ] && ! grep -q "invalid data" "$out/$name-c.log" \
            && grep -q "every byte as sent" "$out/$name-soft.log"; then
        outcome=pass
        detail="$(grep -h "usec/iter" "$out/$name-c.log" | head -n 1 | sed 's/^/C: /')"
    else
        outcome=fail
        detail="exit status C $crc, soft $src; C: $(tail -n 1 "$out/$name-c.log"); soft: $(tail -n 1 "$out/$name-soft.log")"
    fi
    record_case "$tsv" "$id" "$outcome" "$detail"
}

# The C program against itself on rxe0, the reference a soft pairing's result is read against:
# $1 = program, $2 = variant, $3 = options.
reference() {
    local program=$1 variant=$2 copts=$3
    tcp_port=$((tcp_port + 1))
    local id="ctools/$program#$variant.cserverCclient" name="$program-$variant-c-c"
    local c="$bin/$program -d rxe0 -g 1 -n $iters -p $tcp_port $copts"
    timeout 90 $c > "$out/$name-server.log" 2>&1 &
    local spid=$!
    sleep 1
    timeout 90 $c 10.9.0.1 > "$out/$name-client.log" 2>&1
    local crc=$?
    wait "$spid"
    local src=$?
    local outcome=pass detail
    detail="$(grep -h "usec/iter" "$out/$name-client.log" | head -n 1)"
    if [ "$crc" != 0 ] || [ "$src" != 0 ] || grep -q "invalid data" "$out/$name-server.log"; then
        outcome=fail
        detail="exit status client $crc, server $src; server: $(tail -n 1 "$out/$name-server.log")"
    fi
    record_case "$tsv" "$id" "$outcome" "$detail"
}

both() { # the same pairing in both directions, and the C program against itself
    [[ "$1#$2" =~ ${CTOOLS_ONLY:-.} ]] || return 0
    pair "$1" "$2" "$3" "$4" c-server "$5"
    pair "$1" "$2" "$3" "$4" soft-server "$5"
    [ -n "$5" ] || reference "$1" "$2" "$3"
}

both ibv_rc_pingpong checked "-c" "-c" ""
both ibv_rc_pingpong events "-c -e" "-c -e" ""
# rxe's ODP copy ignores the offset inside a page (conformance-tests/findings/ibverbs-rxe.tsv):
# a 4096-byte message in 1024-byte packets is a finding, a one-packet message is not.
both ibv_rc_pingpong odp "-c -o" "-c -o" ""
both ibv_rc_pingpong odpOnePacket "-c -o -s 1024" "-c -o -s 1024" ""
both ibv_rc_pingpong odpPrefetch "-c -o -P -s 1024" "-c -o -P -s 1024" ""
both ibv_rc_pingpong newSendApi "-c -N" "-c -N" ""
both ibv_rc_pingpong softTimestamps "-c" "-c -t" ""
both ibv_rc_pingpong implicitOdp "-O" "-O" "doesn't support implicit ODP"
both ibv_uc_pingpong checked "-c" "-c" ""
both ibv_uc_pingpong events "-c -e" "-c -e" ""
both ibv_ud_pingpong checked "-c" "-c" ""
both ibv_srq_pingpong checked "-c -q 8" "-c -q 8" ""
both ibv_srq_pingpong odpOnePacket "-c -q 8 -o -s 1024" "-c -q 8 -o -s 1024" ""
# XRC: neither rxe nor the API has XRC domains; the C program's refusal is the record.
batch_close
[[ "ibv_xsrq_pingpong#xrc" =~ ${CTOOLS_ONLY:-.} ]] || exit 0
timeout 30 "$bin/ibv_xsrq_pingpong" -d rxe0 -g 1 > "$out/ibv_xsrq_pingpong-c.log" 2>&1
printf '%s\t%s\t%s\n' "ctools/ibv_xsrq_pingpong#xrc" skip \
    "XRC is not in the API, and rxe0 refuses it: $(head -n 1 "$out/ibv_xsrq_pingpong-c.log")" >> "$tsv"
