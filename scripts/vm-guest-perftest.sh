#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -n veth), called at the end of vm-guest.sh or on
# its own: perftest's C programs on rxe0 (root namespace, 10.9.0.1) against `verbs4j perf
# --compat perftest` on a soft device in namespace 'peer' (10.9.0.2), in both directions, for
# write/read/send/atomic x bw/lat, plus ODP variants; then ib_write_bw's figures: C against C
# on rxe0, C client against the soft server and the reverse, from this same boot.
# One line per pairing in target/vm/c-tools-perftest.tsv: name, pass/fail/skip, figure or reason.
# scripts/vm-evaluate.py fails the run when a line says fail or the file is missing.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=target/vm
mkdir -p "$out"
tsv="$out/c-tools-perftest.tsv"
: > "$tsv"
# shellcheck source=scripts/vm-guest-env.sh
source scripts/vm-guest-env.sh
# The soft sides run one after another in one JVM in namespace 'peer' (batch_run): a side
# written "v4j ARGS" is verbs4j's command ARGS there.
BATCH_TIMEOUT_S=120
v4j="v4j perf --compat perftest"
echo "== perftest against the soft provider (guest uptime $(cut -d' ' -f1 /proc/uptime) s)"

# The value in column $2 of the first table line that starts with a number in log $1.
figure() { awk -v col="$2" '$1 ~ /^[0-9]+$/ && NF >= col { print $col; exit }' "$1"; }

port=18800
# $1 name, $2 namespace of the server ('-' or peer), $3 server command, $4 client command, $5 figure column
pairing() {
    local name=$1 ns=$2 server=$3 client=$4 column=$5 side
    port=$((port + 1))
    local log="$out/perftest-$name"
    start_side peer "${server//@PORT@/$port}" "$log-server.log" 120
    local server_side=$side
    if ! await 90 "$server_side" listening "$ns" "$port"; then
        dump_java_threads "$(side_process "$server_side")"
        stop_side "$server_side"
        printf '%s\tfail\tthe server never listened on TCP %s (log %s-server.log)\n' "$name" "$port" "$log" >> "$tsv"
        return
    fi
    start_side peer "${client//@PORT@/$port}" "$log-client.log" 120
    end_side "$side" "$log-client.log" 130
    local crc=$?
    end_side "$server_side" "$log-server.log" 130
    local src=$?
    local value
    value=$(figure "$log-client.log" "$column")
    if [ "$crc" -eq 0 ] && [ "$src" -eq 0 ] && [ -n "$value" ]; then
        printf '%s\tpass\t%s\n' "$name" "$value" >> "$tsv"
    else
        printf '%s\tfail\tclient status %s, server status %s, result %s (logs %s-*.log)\n' \
            "$name" "$crc" "$src" "${value:-none}" "$log" >> "$tsv"
    fi
    tail -n 1 "$tsv"
}

for test in write_bw read_bw send_bw atomic_bw write_lat read_lat send_lat atomic_lat; do
    case $test in
        write_bw) opts="-s 65536 -n 1000 --report_gbits"; column=4 ;;
        *_bw) opts="-s 65536 -n 200 --report_gbits"; column=4 ;;
        *_lat) opts="-s 8 -n 200"; column=5 ;;
    esac
    [[ $test == atomic_* ]] && opts=${opts/-s 65536 /} && opts=${opts/-s 8 /}
    c="ib_$test -d rxe0 -x 1 -F -p @PORT@ $opts"
    soft="$v4j $test --address 10.9.0.2 -F -p @PORT@ $opts"
    pairing "$test-c-server-soft-client" - "$c" "$soft 10.9.0.1" "$column"
    pairing "$test-soft-server-c-client" peer "$soft" "$c 10.9.0.2" "$column"
done

# On-demand paging on both sides (rxe has ODP for RC; perftest --odp).
opts="-s 65536 -n 200 --report_gbits --odp"
c="ib_write_bw -d rxe0 -x 1 -F -p @PORT@ $opts"
soft="$v4j write_bw --address 10.9.0.2 -F -p @PORT@ $opts"
pairing write_bw-odp-c-server-soft-client - "$c" "$soft 10.9.0.1" 4
pairing write_bw-odp-soft-server-c-client peer "$soft" "$c 10.9.0.2" 4
batch_close

# ib_write_bw between the two C programs on rxe0, for the figures beside the soft pairings above.
pairing "write_bw-c-server-c-client" - "ib_write_bw -d rxe0 -x 1 -F -p @PORT@ -s 65536 -n 1000 --report_gbits" \
    "ib_write_bw -d rxe0 -x 1 -F -p @PORT@ -s 65536 -n 1000 --report_gbits 10.9.0.1" 4
cc=$(awk -F'\t' '$1 == "write_bw-c-server-c-client" && $2 == "pass" { print $3 }' "$tsv")
for pair in write_bw-c-server-soft-client write_bw-soft-server-c-client; do
    gbps=$(awk -F'\t' -v p="$pair" '$1 == p && $2 == "pass" { print $3 }' "$tsv")
    if [ -n "$cc" ] && [ -n "$gbps" ]; then
        ratio=$(awk -v a="$gbps" -v b="$cc" 'BEGIN { if (b > 0) printf "%.0f%%", 100 * a / b; else print "n/a" }')
        printf 'figure:%s\tpass\t%s Gb/s vs C-C %s Gb/s: %s\n' "$pair" "$gbps" "$cc" "$ratio" >> "$tsv"
    else
        printf 'figure:%s\tskip\tno figure: a run above failed\n' "$pair" >> "$tsv"
    fi
done
tail -n 2 "$tsv"
echo "== perftest pairings: $(grep -c $'\tpass\t' "$tsv") pass, $(grep -c $'\tfail\t' "$tsv") fail, $(grep -c $'\tskip\t' "$tsv") skip"
