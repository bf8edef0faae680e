#!/usr/bin/env bash
# Runs inside the rxe micro-VM (rxe-vm/run.sh -n veth), from scripts/vm-guest.sh or on its own:
# the soft provider against the kernel's rxe over a lossy, slow link. netem on both ends of the
# veth pair (veth0 in the root namespace, veth1 in namespace 'peer') delays every packet by
# 1 ms and loses, reorders or duplicates some; then, with every byte checked where the programs
# can check it:
#   - ibv_rc_pingpong on rxe0 against `verbs4j pingpong --compat ibv_rc_pingpong` on the soft
#     device in 'peer' (10.9.0.2), each side once the server;
#   - ib_write_bw (with --full also ib_read_bw) against `verbs4j perf --compat
#     perftest`, each side once the requester;
#   - the same programs kernel against kernel, the reference: rxe0 against rxe1, a second rxe
#     device on veth1 inside 'peer' (the kernel's rxe has a UDP socket per network namespace);
#   - without --full: the conformance suite's RC families, the soft device posting and rxe0
#     answering (the soft-to-rxe column of vm-guest.sh, restricted).
# Before and after each pairing the script reads rxe0's and rxe1's hw_counters; the soft side
# prints its queue pairs' counters when it ends (SoftQpCounters). scripts/lossy-report.py
# turns the logs into the results and the verdict.
#
#   bash scripts/vm-guest-lossy.sh          # 1 % loss, 1 ms delay: the test command's step, judged
#   bash scripts/vm-guest-lossy.sh --full   # 1 ms without loss, 0.1 %, 1 %, 5 % loss, reordering,
#                                           # duplication: the table of docs/lossy-link.md
# Results: target/vm/lossy.txt (verdict), lossy.rc (exit status), target/vm/lossy-results.tsv, logs in target/vm/lossy/
# (--full: lossy-full.txt, lossy-full-results.tsv, target/vm/lossy-full/). Exit status 0 when
# every pairing ran and checked its data and the suite's RC families passed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/vm-guest-env.sh
full=0
[ "${1:-}" != --full ] || full=1
name=lossy
[ "$full" = 0 ] || name=lossy-full
out=target/vm
dir=$out/$name
rm -rf "$dir"
mkdir -p "$dir"
runs=$dir/runs.tsv
: > "$runs"
started=$SECONDS
BATCH_TIMEOUT_S=90
# netem drops, delays and duplicates what it is given whole: a run of datagrams the soft
# provider hands the kernel as one segmented send (UDP_SEGMENT) would be lost or kept as one,
# so each loss would cost the soft side one round for up to 64 packets where the kernel's
# rxe, sending packet by packet, pays one per packet. The soft side sends packet by packet
# here too (every JVM of this script: the batch's and the suite's).
export JDK_JAVA_OPTIONS="-Dverbs4j.soft.udp.segment=false"
bin=$(dirname "$LD_LIBRARY_PATH")/bin

if [ "$full" = 1 ]; then
    conditions=("delay1ms|delay 1ms" "loss0.1|delay 1ms loss 0.1%" "loss1|delay 1ms loss 1%" "loss5|delay 1ms loss 5%"
        "reorder|delay 1ms reorder 25% 50%" "duplicate|delay 1ms duplicate 1%")
    tests=(rc_pingpong write_bw read_bw)
else
    conditions=("loss1|delay 1ms loss 1%")
    tests=(rc_pingpong write_bw)
fi
# The test command's run (without --full) is shorter: it judges that every pairing passes and
# checks its data, and shows the goodput beside the kernel's; the table wants longer runs.
if [ "$full" = 1 ]; then
    pp_opts="-s 65536 -n 100 -c"
    bw_opts="-s 65536 -n 200 --report_gbits"
else
    pp_opts="-s 65536 -n 20 -c"
    bw_opts="-s 65536 -n 100 --report_gbits"
fi

if ! modprobe -a sch_netem sch_prio cls_u32 2> "$dir/modprobe.log"; then
    echo "sch_netem: $(cat "$dir/modprobe.log")" > "$out/$name.txt"
    echo "fail  the guest kernel lacks sch_netem, sch_prio or cls_u32" >> "$out/$name.txt"
    echo 1 > "$out/$name.rc"
    cat "$out/$name.txt"
    exit 1
fi

# netem on both ends, for RoCEv2 only (UDP to port 4791, requests and responses alike): the TCP
# connections beside it (the C programs' exchange of addresses, the suite's agent) stay clean,
# so what is measured is the RDMA transport's recovery, not TCP's. A prio qdisc sends all
# traffic to its first band, the filter RoCE to its third, where netem sits.
netem() { # $1 = netem's arguments for both ends, or "off"
    local ns
    for ns in - peer; do
        local run=() dev=veth0
        [ "$ns" = - ] || { run=(ip netns exec peer); dev=veth1; }
        "${run[@]}" tc qdisc del dev $dev root 2>/dev/null
        [ "$1" != off ] || continue
        "${run[@]}" tc qdisc add dev $dev root handle 1: prio bands 3 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
            && "${run[@]}" tc qdisc add dev $dev parent 1:3 handle 30: netem $1 \
            && "${run[@]}" tc filter add dev $dev parent 1: protocol ip prio 1 u32 match ip protocol 17 0xff \
                match ip dport 4791 0xffff flowid 1:3 || return 1
    done
    tc -s qdisc show dev veth0 >> "$dir/netem.log"
}

kernel_counters() { # $1 = file: every hw_counter of rxe0 and rxe1 (when it exists), device.name=value
    # One grep for all of them (path:value), not a process per counter.
    grep -H . /sys/class/infiniband/rxe[01]/ports/1/hw_counters/* 2>/dev/null |
        sed -E 's#^/sys/class/infiniband/([^/]+)/ports/1/hw_counters/([^:]+):#\1.\2=#' > "$1"
}

port=19000
# One pairing: $1 condition, $2 test, $3 pairing name, $4 server (C command, or "v4j ARGS" for the
# soft side in peer), $5 namespace the server listens in, $6 client. Records a line in runs.tsv:
#   condition  test  pairing  server status  client status  log prefix
pairing() {
    local cond=$1 test=$2 pair=$3 server=$4 ns=$5 client=$6 side
    port=$((port + 1))
    local log=$dir/$cond-$test-$pair
    kernel_counters "$log.kernel-before"
    start_side peer "${server//@PORT@/$port}" "$log-server.log" 90
    local server_side=$side crc src
    # ibv_rc_pingpong's server listens for its TCP exchange on [::]; ss sees it either way.
    if await 60 "$server_side" listening "$ns" "$port"; then
        start_side peer "${client//@PORT@/$port}" "$log-client.log" 90
        end_side "$side" "$log-client.log" 100
        crc=$?
        if [ "$crc" = 0 ]; then
            end_side "$server_side" "$log-server.log" 100
            src=$?
        else
            # The kernel's view of its queue pairs (state, PSNs) while the server still waits,
            # then the server ends: it would wait out its own bound for a client that left.
            rdma resource show qp > "$log.qp" 2>&1
            sleep 5
            if side_ended "$server_side"; then
                end_side "$server_side" "$log-server.log" 100
                src=$?
            else
                stop_side "$server_side"
                src=$?
            fi
        fi
    else
        dump_java_threads "$(side_process "$server_side")"
        stop_side "$server_side"
        src=$?
        crc=124
        echo "the server never listened on TCP port $port" > "$log-client.log"
    fi
    kernel_counters "$log.kernel-after"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$cond" "$test" "$pair" "$src" "$crc" "$log" >> "$runs"
    echo "$cond $test $pair: server status $src, client status $crc"
}

# The commands of each test: C server, C client (add the server's address), soft server, soft client.
c_cmd() { # $1 test, $2 device, $3 GID index
    case $1 in
        rc_pingpong) echo "$bin/ibv_rc_pingpong -d $2 -g $3 -p @PORT@ $pp_opts" ;;
        *) echo "ib_$1 -d $2 -x $3 -F -p @PORT@ $bw_opts" ;;
    esac
}
soft_cmd() { # $1 test
    case $1 in
        rc_pingpong) echo "v4j pingpong --compat ibv_rc_pingpong --address 10.9.0.2 -p @PORT@ $pp_opts" ;;
        *) echo "v4j perf --compat perftest $1 --address 10.9.0.2 -F -p @PORT@ $bw_opts" ;;
    esac
}

soft_pairings() { # $1 condition
    local test
    for test in "${tests[@]}"; do
        # The client is the requester of ib_*_bw (ib_read_bw's reads the server's memory).
        pairing "$1" "$test" rxe-client-soft-server "$(soft_cmd "$test")" peer "$(c_cmd "$test" rxe0 1) 10.9.0.2"
        pairing "$1" "$test" soft-client-rxe-server "$(c_cmd "$test" rxe0 1)" - "$(soft_cmd "$test") 10.9.0.1"
    done
}

kernel_pairings() { # $1 condition
    local test
    for test in "${tests[@]}"; do
        pairing "$1" "$test" rxe-client-rxe1-server "ip netns exec peer $(c_cmd "$test" rxe1 "$rxe1_gid")" peer \
            "$(c_cmd "$test" rxe0 1) 10.9.0.2"
    done
}

# The suite's RC families, the soft device posting, rxe0 answering through an agent (as the
# soft-to-rxe column of vm-guest.sh; its report goes to $dir, apart from the VM's columns).
# base's UD case and cm, misuse, odp and access stay out: they are not about RC traffic, or are
# long (the access matrix) and checked on a perfect link by the full columns. Queue pairs retry
# 6 times, not 7: rxe at 7 never runs out (kernel finding), so a fatal NAK the link loses on
# its way to rxe0 would hold the case until its deadline instead of ending in RETRY_EXC_ERR.
rc_families() {
    local classpath agent_pid start=$SECONDS
    classpath=$(suite_classpath)
    java_run -cp "$classpath" dev.verbs4j.conformance.agent.AgentMain --listen 10.9.0.1:18640 > "$dir/rc-families-agent.log" 2>&1 &
    agent_pid=$!
    ip netns exec peer bash -c "source scripts/vm-guest-env.sh; java_run -Dverbs4j.soft.devices=soft0=10.9.0.2 \
        -Dverbs4j.soft.rxeFlushIcrc=true -cp '$classpath' dev.verbs4j.conformance.ConformanceMain \
        --report-dir $dir --timeout-ms 30000 --retry-count 6 --provider soft --device soft0 --peer-provider ibverbs --peer-device rxe0 \
        --peer-agent 10.9.0.1:18640 --select base --select errors --select flush --select atomicwrite --select memwindow \
        --exclude base.UdTest --label soft-to-rxe-lossy" > "$dir/rc-families.log" 2>&1
    echo $? > "$dir/rc-families.rc"
    wait "$agent_pid"
    tail -n 3 "$dir/rc-families.log"
    echo "== the RC families at 1 % loss took $((SECONDS - start)) s"
}

uname -r > "$dir/kernel.txt"
for c in "${conditions[@]}"; do
    cond=${c%%|*}
    step_start=$SECONDS
    echo "== $cond (netem ${c#*|} on veth0 and veth1): soft against rxe0"
    if ! netem "${c#*|}" 2>> "$dir/netem.log"; then
        echo "netem ${c#*|} refused: $(tail -n 1 "$dir/netem.log")"
        printf '%s\tnetem\tsetup\t1\t1\t%s\n' "$cond" "$dir/netem" >> "$runs"
        continue
    fi
    echo "$cond|${c#*|}" >> "$dir/conditions.txt"
    soft_pairings "$cond"
    [ "$full" = 1 ] || { batch_close; rc_families; }
    echo "== $cond soft pairings took $((SECONDS - step_start)) s"
done
batch_close

# The reference: a second kernel device in 'peer'. It takes UDP 4791 there, so it comes after
# every soft run and goes before the script ends.
netem off
if ip netns exec peer rdma link add rxe1 type rxe netdev veth1 2> "$dir/rxe1.log"; then
    # One grep over the table's 1024 entries: a process per entry costs a minute under emulation.
    rxe1_gid=
    for _ in $(seq 1 50); do
        rxe1_gid=$(grep -lx 0000:0000:0000:0000:0000:ffff:0a09:0002 /sys/class/infiniband/rxe1/ports/1/gids/* 2>/dev/null | head -n 1)
        [ -z "$rxe1_gid" ] || { rxe1_gid=${rxe1_gid##*/}; break; }
        sleep 0.1
    done
    echo "rxe1 on veth1 in namespace peer, GID index ${rxe1_gid:-none} for 10.9.0.2" >> "$dir/rxe1.log"
    for c in "${conditions[@]}"; do
        cond=${c%%|*}
        step_start=$SECONDS
        netem "${c#*|}"
        kernel_pairings "$cond"
        echo "== $cond kernel against kernel took $((SECONDS - step_start)) s"
    done
    netem off
    ip netns exec peer rdma link delete rxe1 2>> "$dir/rxe1.log"
else
    echo "rxe1 could not be made in namespace peer: no kernel reference" >> "$dir/rxe1.log"
fi
netem off

python3 scripts/lossy-report.py judge "$dir" "$out/$name.txt" "$out/$name-results.tsv"
status=$?
echo "$status" > "$out/$name.rc"
cat "$out/$name.txt"
echo "== lossy link ($name) took $((SECONDS - started)) s"
exit "$status"
